package dev.safedefaults.logging.stop;

import java.time.Duration;

import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * A logging route's part of the bounded stop ({@link BoundedLoggingStop}): whether its
 * logging system runs, and how its stop and a failed start's drain are registered. Each
 * route lists its own in {@code META-INF/spring.factories} (Log4j2's and Logback's, in
 * their packages); when the stop is taken over, with which timeout and bound, is decided
 * here, the same on every route ({@link LoggingShutdownEnvironmentPostProcessor},
 * {@link FailedStartLogDrain}). An implementation loads without its logging library: it
 * touches the library's types only once {@link #runs} has said yes.
 */
public interface LoggingStopRoute {

	/**
	 * Whether this route's logging system runs with this class loader.
	 * @param classLoader the application's class loader
	 * @return true when its stop is the one to register
	 */
	boolean runs(ClassLoader classLoader);

	/**
	 * Makes this route's bounded stop the one that runs when the JVM shuts down.
	 * @param classLoader the application's class loader
	 * @param timeout how long queued events may take to be written
	 * @param bound how long the whole stop may take from the signal
	 */
	void registerStop(ClassLoader classLoader, Duration timeout, Duration bound);

	/**
	 * Registers the drain of a failed start, once per logging context.
	 * @param classLoader the application's class loader
	 * @param timeout how long queued events may take to be written, also the bound
	 */
	void registerFailedStartDrain(ClassLoader classLoader, Duration timeout);

	/**
	 * The route whose logging system runs: Log4j2 when Boot chooses it, Logback when it
	 * runs ({@link LogbackLoggingSystemChoice#isRunning}); never both, since Boot chooses
	 * one logging system.
	 * @param classLoader the application's class loader
	 * @return the route, or {@code null} when neither runs
	 */
	static @Nullable LoggingStopRoute running(ClassLoader classLoader) {
		for (LoggingStopRoute route : SpringFactoriesLoader.forDefaultResourceLocation(classLoader)
			.load(LoggingStopRoute.class)) {
			if (route.runs(classLoader)) {
				return route;
			}
		}
		return null;
	}

}
