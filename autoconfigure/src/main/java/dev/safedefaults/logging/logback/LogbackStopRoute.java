package dev.safedefaults.logging.logback;

import java.time.Duration;

import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.stop.FailedStartLogDrain;
import dev.safedefaults.logging.stop.LoggingStopRoute;

/**
 * The bounded stop on Logback, when it runs
 * ({@link LogbackLoggingSystemChoice#isRunning}: Boot's choice and SLF4J's backend): the
 * wrapped appenders' queues drained by {@link LogbackShutdown}, with the same timeout,
 * bound and last line as on Log4j2. Listed in {@code META-INF/spring.factories}.
 */
public final class LogbackStopRoute implements LoggingStopRoute {

	@Override
	public boolean runs(ClassLoader classLoader) {
		return LogbackLoggingSystemChoice.isRunning(classLoader);
	}

	@Override
	public void registerStop(ClassLoader classLoader, Duration timeout, Duration bound) {
		LogbackContext.registerStop(timeout, bound);
	}

	@Override
	public void registerFailedStartDrain(ClassLoader classLoader, Duration timeout) {
		LogbackContext.registerFailedStartDrain(timeout);
	}

	/**
	 * Keeps Logback's types out of the route, which loads without Logback too.
	 */
	private static final class LogbackContext {

		static void registerStop(Duration timeout, Duration bound) {
			if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
				LogbackShutdown.registerBoundedStop(context, timeout, bound);
			}
		}

		static void registerFailedStartDrain(Duration timeout) {
			if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context
					&& markOnce(context)) {
				LogbackShutdown.registerBoundedStop(context, timeout, timeout);
			}
		}

		/**
		 * Marks the context, once: Logback's object map has no put-if-absent, so two
		 * failed starts at once must not both see it unmarked.
		 */
		private static synchronized boolean markOnce(ch.qos.logback.classic.LoggerContext context) {
			if (context.getObject(FailedStartLogDrain.DRAIN_REGISTERED) != null) {
				return false;
			}
			context.putObject(FailedStartLogDrain.DRAIN_REGISTERED, Boolean.TRUE);
			return true;
		}

	}

}
