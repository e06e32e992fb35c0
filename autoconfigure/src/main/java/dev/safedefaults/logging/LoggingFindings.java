package dev.safedefaults.logging;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of the logging feature (incidents 2, 3 and 6), declared once. Variants
 * ({@code _BECAUSE_…}) say the same thing for another way the situation arose.
 */
public final class LoggingFindings implements FindingDeclarations {

	static final FindingType NOT_LOG4J2 = FindingType.declare("logging.not-log4j2", WARNING,
			"Log4j2 is not the logging system (Logback won), so none of the logging defaults apply.",
			"Log4j2 is not the logging system, so none of the logging defaults (all-async, discard under pressure, "
					+ "no location) apply.",
			"Add the second block of the README's install section to <dependencies> (not <dependencyManagement>): "
					+ "spring-boot-starter with spring-boot-starter-logging excluded, and keep the starter's "
					+ "spring-boot-starter-log4j2 (no exclusion of it); mvn dependency:tree -Dincludes=ch.qos.logback "
					+ "shows what else brings Logback.");

	/**
	 * Logback and Log4j2 core both on the class path: Boot's logging system factories try
	 * Logback first.
	 */
	static final FindingType NOT_LOG4J2_BECAUSE_BOTH_ON_CLASS_PATH = NOT_LOG4J2.because(
			"Logback and Log4j2 are both on the class path (spring-boot-starter-logging was not excluded) and Boot "
					+ "chooses Logback first: Logback runs, so none of the logging defaults (all-async, discard under "
					+ "pressure, no location) apply; SLF4J's 'multiple providers' warning comes from the same cause.",
			NOT_LOG4J2.fix());

	/**
	 * Logback runs and the application ships a Log4j2 configuration, which Logback never
	 * reads.
	 */
	static final FindingType NOT_LOG4J2_IGNORING_LOG4J2_CONFIGURATION = NOT_LOG4J2
		.because("Log4j2 is not the logging system, so the application's Log4j2 configuration %1$s (from %2$s) is "
				+ "ignored and none of the logging defaults (all-async, discard under pressure, no location) apply.",
				NOT_LOG4J2.fix() + " Log4j2 then reads %1$s.");

	/** Both on the class path, Logback chosen, and a Log4j2 configuration left unread. */
	static final FindingType NOT_LOG4J2_BECAUSE_BOTH_ON_CLASS_PATH_IGNORING_LOG4J2_CONFIGURATION = NOT_LOG4J2.because(
			"Logback and Log4j2 are both on the class path (spring-boot-starter-logging was not excluded) and Boot "
					+ "chooses Logback first: the application's Log4j2 configuration %1$s (from %2$s) is ignored and "
					+ "none of the logging defaults (all-async, discard under pressure, no location) apply; SLF4J's "
					+ "'multiple providers' warning comes from the same cause.",
			NOT_LOG4J2.fix() + " Log4j2 then reads %1$s.");

	/**
	 * Log4j2 runs and the application ships a Logback configuration, which Log4j2 never
	 * reads.
	 */
	static final FindingType LOGBACK_CONFIGURATION_IGNORED = FindingType.declare("logging.logback-config-ignored",
			WARNING,
			"Log4j2 is the logging system and the application ships a Logback configuration (logback-spring.xml, "
					+ "logback.xml, their -test and .groovy forms, or logging.config naming one): nothing in it is used.",
			"%1$s (from %2$s) is a Logback configuration, and Log4j2 is the logging system: none of its appenders, "
					+ "encoders, patterns or levels are used, every line is written in the Log4j2 configuration's "
					+ "format (Boot's default pattern unless a log4j2-spring.xml says otherwise).",
			"Rewrite %1$s as log4j2-spring.xml (the starter's logging defaults then apply to it), or keep Logback: "
					+ "no route keeps Logback with the starter's logging defaults yet; today, exclude "
					+ "spring-boot-starter-log4j2 from the starter, remove the spring-boot-starter-logging exclusion "
					+ "and set safe-defaults.logging.enabled=false (docs/logging.md, Keeping Logback).");

	static final FindingType DISRUPTOR_4 = FindingType.declare("logging.disruptor-4", WARNING,
			"LMAX Disruptor 4.x is on the class path: with Log4j 2.25 it loses events, WARN and ERROR included and "
					+ "uncounted, whenever the ring buffer is full; the starter leaves all-async off.",
			"Disruptor 4.x with Log4j 2.25 silently loses events, WARN and ERROR included and uncounted, whenever "
					+ "the ring buffer is full; the starter leaves all-async logging off.",
			"Pin com.lmax:disruptor to 3.4.4.");

	static final FindingType SYNC_LOGGERS = FindingType.declare("logging.sync-loggers", WARNING,
			"Loggers write on the calling thread (no all-async context): every log call waits for the appender "
					+ "(incident 2).",
			"These loggers write on the calling thread: every log call waits for the appender, so a slow disk or "
					+ "log shipper slows requests (incident 2).",
			"Use the starter's all-async default: remove Log4jContextSelector overrides and keep the LMAX Disruptor "
					+ "3.x on the class path (or start without -Dsafe-defaults.logging.enabled=false).");

	static final FindingType TWO_QUEUES = FindingType.declare("logging.two-queues", WARNING,
			"AsyncLogger/AsyncRoot elements inside the all-async context: each event crosses two ring buffers and "
					+ "two threads.",
			"AsyncLogger/AsyncRoot elements inside an all-async context: each event crosses two ring buffers and "
					+ "two background threads.",
			"Replace <AsyncLogger>/<AsyncRoot> with <Logger>/<Root>; all loggers are already asynchronous.");

	/** A logger of the user's Log4j configuration file. */
	static final FindingType INCLUDE_LOCATION = FindingType.declare("logging.include-location", WARNING,
			"A logger captures the caller's location: a stack walk per log event (~40% of the CPU in incident 3).",
			"This logger captures the caller's location: a stack walk per log event (~40%% of the CPU in "
					+ "incident 3).",
			"Set includeLocation=\"false\" on this logger in the Log4j configuration, and drop %%C %%F %%l %%L %%M "
					+ "from layouts.");

	/**
	 * A logger Boot created from {@code logging.level.*} while the starter's removal of
	 * its location capture is off ({@code safe-defaults.logging.enabled=false}).
	 */
	static final FindingType INCLUDE_LOCATION_BECAUSE_LEVEL_PROPERTY_AND_STARTER_OFF = INCLUDE_LOCATION.because(
			"Boot created this logger from logging.level.%1$s and made it capture the caller's location: a stack "
					+ "walk per log event under it (~40%% of the CPU in incident 3). The starter removes that "
					+ "capture, but safe-defaults.logging.enabled=false switched it off.",
			"Remove safe-defaults.logging.enabled=false (the starter then removes the capture), or declare the "
					+ "logger in your Log4j configuration file with includeLocation=\"false\" instead of "
					+ "logging.level.%1$s.");

	/**
	 * A Boot-created level logger that still captures location although the starter is
	 * on.
	 */
	static final FindingType INCLUDE_LOCATION_BECAUSE_LEVEL_PROPERTY = INCLUDE_LOCATION.because(
			"Boot created this logger from logging.level.%1$s and made it capture the caller's location: a stack "
					+ "walk per log event under it (~40%% of the CPU in incident 3).",
			"Declare the logger in your Log4j configuration file with includeLocation=\"false\" instead of "
					+ "logging.level.%1$s.");

	static final FindingType LOCATION_PATTERN = FindingType.declare("logging.location-pattern", WARNING,
			"An appender's layout asks for the caller's location (%C %F %l %L %M, nested ones included): a stack "
					+ "walk per event, or '?' where location is not captured.",
			"The layout asks for the caller's location (%1$s): a stack walk per event where location is captured, "
					+ "'?' where it is not.",
			"Remove %1$s from the layout; log the class with %%c (the logger name).");

	/**
	 * A Logback appender's pattern: Logback computes the location whenever a converter
	 * asks for it, on the thread that renders the event.
	 */
	static final FindingType LOCATION_PATTERN_ON_LOGBACK = LOCATION_PATTERN.because(
			"The pattern of the Logback appender '%2$s' asks for the caller's location (%1$s): a stack walk per "
					+ "event (new Throwable().getStackTrace()) where the event is written on the calling thread, '?' "
					+ "behind an AsyncAppender without includeCallerData.",
			"Remove %1$s from the pattern of the appender '%2$s' in the Logback configuration; log the class with "
					+ "%%logger (the logger name).");

	static final FindingType FULL_STACK_TRACES = FindingType.declare("logging.full-stack-traces", INFO,
			"A pattern layout prints every stack trace in full (%ex, %xEx, %rEx, Boot's %wEx or %xwEx, or no "
					+ "throwable converter, to which Log4j appends %xEx) instead of %throttledEx: in an error storm "
					+ "the background thread falls behind (incident 6).",
			"The layout prints every stack trace in full (%1$s): in an error storm the one background thread "
					+ "rendering 50-100-frame traces falls behind, and the backlog outlives the storm (incident 6).",
			"Render throwables with %%throttledEx: keep Boot's ${sys:LOG_EXCEPTION_CONVERSION_WORD} in the pattern "
					+ "(the starter makes it %%throttledEx) or write %%throttledEx where the pattern has %%ex, %%xEx, "
					+ "%%rEx, %%wEx or %%xwEx.");

	/**
	 * A queue-full policy set by the user through {@code log4j2.asyncQueueFullPolicy}.
	 */
	static final FindingType BLOCKING_QUEUE_FULL = FindingType.declare("logging.blocking-queue-full", WARNING,
			"The queue-full policy blocks: when the ring buffer is full, threads logging INFO wait for the "
					+ "background thread (incident 2).",
			"log4j2.asyncQueueFullPolicy=%1$s blocks: when the async ring buffer is full, threads that log INFO "
					+ "wait for the background thread (incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
			"Remove the log4j2.asyncQueueFullPolicy override: the starter's policy then discards INFO and below "
					+ "under pressure and counts them.");

	/**
	 * Log4j's default policy, because the JVM-level switch turned the starter's Log4j
	 * defaults off.
	 */
	static final FindingType BLOCKING_QUEUE_FULL_BECAUSE_JVM_LEVEL_OFF = BLOCKING_QUEUE_FULL.because(
			"Log4j's default queue-full policy blocks (the starter's Log4j defaults are off at JVM level): when the "
					+ "async ring buffer is full, threads that log INFO wait for the background thread "
					+ "(incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
			"Remove -Dsafe-defaults.logging.enabled=false / safe-defaults.enabled=false (or the environment "
					+ "variable) so that the starter's policy discards INFO and below under pressure.");

	/**
	 * The starter's policy in block mode, because of
	 * {@code safe-defaults.logging.queue-full-policy=block}.
	 */
	static final FindingType BLOCKING_QUEUE_FULL_BECAUSE_BLOCK_MODE = BLOCKING_QUEUE_FULL.because(
			"safe-defaults.logging.queue-full-policy=block: when the async ring buffer is full, threads that log "
					+ "INFO wait for the background thread (incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
			"Set safe-defaults.logging.queue-full-policy=discard (the default).");

	/**
	 * The starter's policy in block mode, because the feature was switched off in
	 * application properties.
	 */
	static final FindingType BLOCKING_QUEUE_FULL_BECAUSE_STARTER_OFF = BLOCKING_QUEUE_FULL.because(
			"safe-defaults.logging.enabled=false in application properties made the queue-full policy block as "
					+ "Log4j's does: when the async ring buffer is full, threads that log INFO wait for the background "
					+ "thread (incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
			"Remove safe-defaults.logging.enabled=false: the starter's policy then discards INFO and below under "
					+ "pressure and counts them.");

	static final FindingType FORMAT_MSG_ASYNC = FindingType.declare("logging.format-msg-async", WARNING,
			"log4j2.formatMsgAsync=true: messages are formatted on the background thread, so a mutable argument can "
					+ "be logged in a later state.",
			"Messages are formatted on the one background thread: a mutable argument can be logged in a later "
					+ "state, and all formatting competes for that thread.",
			"Remove log4j2.formatMsgAsync=true.");

	static final FindingType NO_SHUTDOWN_HOOK = FindingType.declare("logging.no-shutdown-hook", WARNING,
			"logging.register-shutdown-hook=false: events still queued in the async ring buffer are lost when the "
					+ "JVM exits.",
			"Without Boot's logging shutdown hook, events still queued in the async ring buffer are lost when the "
					+ "JVM exits.",
			"Remove logging.register-shutdown-hook=false.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(NOT_LOG4J2, LOGBACK_CONFIGURATION_IGNORED, DISRUPTOR_4, SYNC_LOGGERS, TWO_QUEUES,
				INCLUDE_LOCATION, LOCATION_PATTERN, BLOCKING_QUEUE_FULL, FORMAT_MSG_ASYNC, FULL_STACK_TRACES,
				NO_SHUTDOWN_HOOK);
	}

}
