package dev.safedefaults.stuckrequests.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.HttpResources;
import reactor.netty.resources.LoopResources;

import org.springframework.http.client.ReactorResourceFactory;

/**
 * Reactor Netty's event loops as a WebFlux application runs them: those of Boot's
 * {@link ReactorResourceFactory} (the global {@link HttpResources} unless the application
 * asked for its own), else the global ones. Reactor Netty's server and its clients share
 * one group: a client's loops are the server's, colocated ({@code LoopResources.onClient}
 * wraps {@code onServer}); asked with the same native preference as the server
 * ({@link LoopResources#DEFAULT_NATIVE}), the group is the one the server already made,
 * not a new one.
 */
final class ReactorNettyLoops {

	private ReactorNettyLoops() {
	}

	/**
	 * The event loops to watch.
	 * @param factory Boot's resource factory, or {@code null} when there is none
	 * @return each loop of the group
	 */
	static List<ScheduledExecutorService> of(@Nullable ReactorResourceFactory factory) {
		LoopResources resources = (factory != null && factory.isRunning()) ? factory.getLoopResources()
				: HttpResources.get();
		EventLoopGroup group = resources.onServer(LoopResources.DEFAULT_NATIVE);
		List<ScheduledExecutorService> loops = new ArrayList<>();
		for (EventExecutor loop : group) {
			loops.add(loop);
		}
		return loops;
	}

}
