package dev.safedefaults.stuckrequests.reactive;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.DurationText;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.stuckrequests.StuckRequestsProperties;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code stuck-requests} feature on a reactive web application: the threshold
 * of exchanges, the event loops watched and their bound, and what was seen.
 */
final class ReactiveStuckRequestsFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "stuck-requests";

	private final StuckRequestsProperties properties;

	private final EventLoopProperties eventLoops;

	private final ObjectProvider<EventLoopWatch> eventLoopWatches;

	private final ObjectProvider<StuckExchangesWatch> exchangeWatches;

	ReactiveStuckRequestsFeatureStatus(StuckRequestsProperties properties, EventLoopProperties eventLoops,
			ObjectProvider<EventLoopWatch> eventLoopWatches, ObjectProvider<StuckExchangesWatch> exchangeWatches) {
		this.properties = properties;
		this.eventLoops = eventLoops;
		this.eventLoopWatches = eventLoopWatches;
		this.exchangeWatches = exchangeWatches;
	}

	@Override
	public FeatureStatus status() {
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE, "safe-defaults.stuck-requests.enabled is false: neither a stuck exchange "
					+ "nor a blocked event loop is named");
		}
		StuckExchangesWatch exchanges = this.exchangeWatches.getIfAvailable();
		if (exchanges == null) {
			return FeatureStatus.off(FEATURE, "no FindingsStore bean to report stuck exchanges into");
		}
		List<String> appliedTo = new ArrayList<>();
		String threshold = DurationText.of(exchanges.threshold());
		appliedTo.add("WebFlux exchanges running longer than " + threshold + " are named with their endpoint and the "
				+ "calls of the WebClients Boot's builder builds that they wait on");
		String seen = exchanges.describe();
		EventLoopWatch loops = this.eventLoopWatches.getIfAvailable();
		if (loops != null) {
			appliedTo.add(loops.watched() + " Reactor Netty event loops, each with a heartbeat every "
					+ DurationText.of(loops.heartbeatPeriod()) + "; one that runs none of its tasks for longer than "
					+ DurationText.of(loops.threshold()) + " is named with the frame that blocks it");
			seen = seen + "; " + loops.describe();
		}
		else {
			appliedTo
				.add(this.eventLoops.isEnabled() ? "no event loop is watched: Reactor Netty is not on the class path"
						: "no event loop is watched: " + EventLoopProperties.ENABLED_PROPERTY + " is false");
		}
		String scope = (loops != null) ? threshold + ", event loops " + DurationText.of(loops.threshold()) : threshold;
		return new FeatureStatus(FEATURE, true, appliedTo, seen).withScope(scope);
	}

}
