package dev.safedefaults.logging.log4j2;

import java.time.Duration;

import dev.safedefaults.logging.Log4j2LoggingSystemChoice;
import dev.safedefaults.logging.stop.FailedStartLogDrain;
import dev.safedefaults.logging.stop.LoggingStopRoute;

/**
 * The bounded stop on Log4j2, when Boot chooses it ({@link Log4j2LoggingSystemChoice}):
 * the ring buffer drained by {@link LoggingShutdown}. Listed in
 * {@code META-INF/spring.factories}.
 */
public final class Log4j2StopRoute implements LoggingStopRoute {

	@Override
	public boolean runs(ClassLoader classLoader) {
		return Log4j2LoggingSystemChoice.isChosen(classLoader);
	}

	@Override
	public void registerStop(ClassLoader classLoader, Duration timeout, Duration bound) {
		Log4jContext.registerStop(classLoader, timeout, bound);
	}

	@Override
	public void registerFailedStartDrain(ClassLoader classLoader, Duration timeout) {
		Log4jContext.registerFailedStartDrain(classLoader, timeout);
	}

	/**
	 * Keeps Log4j's types out of the route, which loads without Log4j too.
	 */
	private static final class Log4jContext {

		static void registerStop(ClassLoader classLoader, Duration timeout, Duration bound) {
			org.apache.logging.log4j.spi.LoggerContext context = org.apache.logging.log4j.LogManager
				.getContext(classLoader, false);
			if (context instanceof org.apache.logging.log4j.core.LoggerContext core) {
				LoggingShutdown.registerBoundedStop(core, timeout, bound);
			}
		}

		static void registerFailedStartDrain(ClassLoader classLoader, Duration timeout) {
			org.apache.logging.log4j.spi.LoggerContext context = org.apache.logging.log4j.LogManager
				.getContext(classLoader, false);
			if (context instanceof org.apache.logging.log4j.core.LoggerContext core
					&& core.putObjectIfAbsent(FailedStartLogDrain.DRAIN_REGISTERED, Boolean.TRUE) == null) {
				LoggingShutdown.registerBoundedStop(core, timeout, timeout);
			}
		}

	}

}
