package dev.safedefaults.logging.logback;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;

/**
 * Checks every {@code AsyncAppender} of the application's Logback configuration (also one
 * nested in another appender) for the traps of incidents 2 and 3
 * ({@link AsyncAppenderFindings}); the starter's own asynchronous wrappers are not
 * checked. Reads the appenders' settings as Logback applied them (a
 * {@code discardingThreshold} left unset reads as {@code queueSize / 5} once started).
 */
public class LogbackAsyncAppenderCheck implements Check {

	private final Supplier<LoggerContext> context;

	/**
	 * Creates the check.
	 * @param context the Logback context to read when the check runs
	 */
	public LogbackAsyncAppenderCheck(Supplier<LoggerContext> context) {
		this.context = context;
	}

	@Override
	public String name() {
		return "logging.logback-async-appenders";
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		for (Appender<ILoggingEvent> appender : LogbackAppenders.of(this.context.get())) {
			if (appender instanceof AsyncAppender async && !isTheStarters(async)) {
				check(async, findings);
			}
		}
		return findings;
	}

	private static boolean isTheStarters(AsyncAppender appender) {
		return appender.getClass().getName().startsWith("dev.safedefaults.");
	}

	private static void check(AsyncAppender appender, List<Finding> findings) {
		String name = String.valueOf(appender.getName());
		int queueSize = appender.getQueueSize();
		int threshold = appender.getDiscardingThreshold();
		if (appender.isNeverBlock()) {
			findings.add(AsyncAppenderFindings.NEVER_BLOCK.raise(name, name, queueSize));
		}
		else if (threshold == 0) {
			findings.add(AsyncAppenderFindings.BLOCKING.raise(name, name, queueSize));
		}
		if (appender.isIncludeCallerData()) {
			findings.add(AsyncAppenderFindings.CALLER_DATA.raise(name, name));
		}
		// A threshold still unset (the appender did not start) is Logback's default.
		int effective = (threshold < 0) ? queueSize / 5 : threshold;
		if (effective >= queueSize) {
			String effect = (effective > queueSize)
					? "every TRACE, DEBUG and INFO event is discarded, even with the queue empty"
					: "TRACE, DEBUG and INFO are discarded as soon as one event is queued";
			findings.add(AsyncAppenderFindings.DISCARDING_THRESHOLD.raise(name, name, effective, queueSize, effect));
		}
		else if (effective > 0 && queueSize < AsyncAppenderFindings.MIN_QUEUE_SIZE) {
			findings
				.add(AsyncAppenderFindings.SMALL_QUEUE.raise(name, name, queueSize, effective, queueSize - effective));
		}
	}

}
