package dev.safedefaults.logging.stop;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.safedefaults.StarterThreads;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationShutdownHandlers;

/**
 * Where the latest application's {@link BoundedLoggingStop} is registered. Spring Boot's
 * shutdown handlers and the JVM's shutdown hooks are JVM-wide, while each application run
 * (a DevTools restart, a test's second application) configures its own stop: registering
 * a stop removes the previous run's handler from Boot's, and the one JVM hook the starter
 * adds holds no state of its own, it tells the current stop when the JVM starts to shut
 * down.
 */
final class StopRegistration {

	private static final AtomicReference<@Nullable BoundedLoggingStop> current = new AtomicReference<>();

	private static final AtomicBoolean hooked = new AtomicBoolean();

	private StopRegistration() {
	}

	/**
	 * Makes a stop the one that runs when the JVM shuts down, in place of the previous
	 * one.
	 * @param stop the stop
	 */
	static void register(BoundedLoggingStop stop) {
		SpringApplicationShutdownHandlers handlers = SpringApplication.getShutdownHandlers();
		BoundedLoggingStop previous = current.getAndSet(stop);
		if (previous != null) {
			handlers.remove(previous);
		}
		handlers.add(stop);
		if (hooked.compareAndSet(false, true)) {
			try {
				Runtime.getRuntime()
					.addShutdownHook(
							StarterThreads.newThread(StopRegistration::signalled, "safe-defaults-stop-signal"));
			}
			catch (IllegalStateException ex) {
				// Already shutting down: Boot's handler still drains, with its own
				// timeout.
			}
		}
	}

	/**
	 * The stop that runs when the JVM shuts down.
	 * @return the latest registered, or {@code null}
	 */
	static @Nullable BoundedLoggingStop current() {
		return current.get();
	}

	private static void signalled() {
		long now = System.nanoTime();
		BoundedLoggingStop stop = current.get();
		if (stop != null) {
			stop.signalled(now);
		}
	}

}
