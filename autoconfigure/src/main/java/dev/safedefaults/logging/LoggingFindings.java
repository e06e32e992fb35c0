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

	/**
	 * The two routes, as the README's install section and docs/logging.md give them: one
	 * text for every fix that names them.
	 */
	private static final String LOG4J2_ROUTE = "for Log4j2 (the default), put the README's install snippet in "
			+ "<dependencies> (not <dependencyManagement>): the starter with its spring-boot-starter-log4j2, and "
			+ "spring-boot-starter with spring-boot-starter-logging excluded";

	private static final String LOGBACK_ROUTE = "to keep Logback, exclude spring-boot-starter-log4j2 from the "
			+ "starter's dependency and keep Boot's spring-boot-starter-logging (docs/logging.md, Keeping Logback)";

	static final FindingType NOT_LOG4J2 = FindingType.declare("logging.not-log4j2", WARNING,
			"Neither of the starter's logging routes runs: Log4j2, which the starter brings, is not the logging "
					+ "system, and Logback does not run on its own (Logback won because both are on the class path, "
					+ "or another logging system runs).",
			"Neither Log4j2 nor Logback is the logging system, so none of the logging defaults (asynchronous "
					+ "logging, discard under pressure, no location) apply.",
			"Choose one route: " + LOG4J2_ROUTE + "; or " + LOGBACK_ROUTE
					+ "; mvn dependency:tree -Dincludes=org.apache.logging.log4j,ch.qos.logback shows what is there.");

	/**
	 * Logback and Log4j2 core both on the class path: Boot's logging system factories try
	 * Logback first, and SLF4J bound to Logback (in the other order the application does
	 * not start at all, so no finding can say so).
	 */
	static final FindingType NOT_LOG4J2_BECAUSE_BOTH_ON_CLASS_PATH = NOT_LOG4J2
		.because("Logback and Log4j2 are both on the class path (neither spring-boot-starter-logging nor the starter's "
				+ "spring-boot-starter-log4j2 is excluded): Logback runs, because SLF4J bound its provider (the "
				+ "first on the class path, unless -Dslf4j.provider names one) and Boot tries Logback first, and the Log4j2 the starter brings is unused. In the "
				+ "other dependency order the application does not start (\"log4j-slf4j2-impl cannot be present "
				+ "with log4j-to-slf4j\"); SLF4J's 'multiple providers' lines come from the same cause.",
				"Choose one route: " + LOG4J2_ROUTE + "; or " + LOGBACK_ROUTE + ".");

	/**
	 * Neither route, and the application ships a Log4j2 configuration, which nothing
	 * reads.
	 */
	static final FindingType NOT_LOG4J2_IGNORING_LOG4J2_CONFIGURATION = NOT_LOG4J2.because(
			"Neither Log4j2 nor Logback is the logging system, so the application's Log4j2 configuration %1$s "
					+ "(from %2$s) is ignored and none of the logging defaults (asynchronous logging, discard under "
					+ "pressure, no location) apply.",
			"Choose one route: " + LOG4J2_ROUTE + " (Log4j2 then reads %1$s); or " + LOGBACK_ROUTE
					+ " and rewrite %1$s as logback-spring.xml.");

	/** Both on the class path, Logback chosen, and a Log4j2 configuration left unread. */
	static final FindingType NOT_LOG4J2_BECAUSE_BOTH_ON_CLASS_PATH_IGNORING_LOG4J2_CONFIGURATION = NOT_LOG4J2
		.because("Logback and Log4j2 are both on the class path (neither spring-boot-starter-logging nor the starter's "
				+ "spring-boot-starter-log4j2 is excluded): Logback runs, because SLF4J bound its provider (the "
				+ "first on the class path, unless -Dslf4j.provider names one) and Boot tries Logback first, so the application's Log4j2 configuration %1$s "
				+ "(from %2$s) is ignored. In the other dependency order the application does not start "
				+ "(\"log4j-slf4j2-impl cannot be present with log4j-to-slf4j\"); SLF4J's 'multiple providers' "
				+ "lines come from the same cause.",
				"Choose one route: " + LOG4J2_ROUTE + " (Log4j2 then reads %1$s); or " + LOGBACK_ROUTE
						+ " and rewrite %1$s as logback-spring.xml.");

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
			"Rewrite %1$s as log4j2-spring.xml (the starter's logging defaults then apply to it), or keep Logback "
					+ "and %1$s: exclude spring-boot-starter-log4j2 from the starter's dependency and remove the "
					+ "spring-boot-starter-logging exclusion (docs/logging.md, Keeping Logback).");

	/**
	 * Logback runs on the keep-Logback route and the application ships a Log4j2
	 * configuration, which Logback never reads.
	 */
	static final FindingType LOG4J2_CONFIGURATION_IGNORED = FindingType.declare("logging.log4j2-config-ignored",
			WARNING,
			"Logback is the logging system (spring-boot-starter-log4j2 excluded) and the application ships a Log4j2 "
					+ "configuration (log4j2-spring.xml, log4j2.xml, their -test, .properties, .yaml and .json forms, "
					+ "or logging.config naming one): nothing in it is used.",
			"%1$s (from %2$s) is a Log4j2 configuration, and Logback is the logging system: none of its appenders, "
					+ "layouts, patterns or levels are used, every line is written in the Logback configuration's "
					+ "format (Boot's default pattern unless a logback-spring.xml says otherwise).",
			"Rewrite %1$s as logback-spring.xml (the starter's logging defaults then apply to it), or take the "
					+ "Log4j2 route and keep %1$s: remove the spring-boot-starter-log4j2 exclusion from the starter "
					+ "and add the second block of the README's install section to <dependencies>: spring-boot-starter "
					+ "with spring-boot-starter-logging excluded.");

	static final FindingType DISRUPTOR_4 = FindingType.declare("logging.disruptor-4", WARNING,
			"LMAX Disruptor 4.x is on the class path: with Log4j 2.25 it loses events, WARN and ERROR included and "
					+ "uncounted, whenever the ring buffer is full; the starter leaves all-async off.",
			"Disruptor 4.x with Log4j 2.25 silently loses events, WARN and ERROR included and uncounted, whenever "
					+ "the ring buffer is full; the starter leaves all-async logging off.",
			"Pin com.lmax:disruptor to 3.4.4.");

	public static final FindingType SYNC_LOGGERS = FindingType.declare("logging.sync-loggers", WARNING,
			"Loggers write on the calling thread (no all-async context): every log call waits for the appender "
					+ "(incident 2).",
			"These loggers write on the calling thread: every log call waits for the appender, so a slow disk or "
					+ "log shipper slows requests (incident 2).",
			"Use the starter's all-async default: remove Log4jContextSelector overrides and keep the LMAX Disruptor "
					+ "3.x on the class path (or start without -Dsafe-defaults.logging.enabled=false).");

	public static final FindingType TWO_QUEUES = FindingType.declare("logging.two-queues", WARNING,
			"AsyncLogger/AsyncRoot elements inside the all-async context: each event crosses two ring buffers and "
					+ "two threads.",
			"AsyncLogger/AsyncRoot elements inside an all-async context: each event crosses two ring buffers and "
					+ "two background threads.",
			"Replace <AsyncLogger>/<AsyncRoot> with <Logger>/<Root>; all loggers are already asynchronous.");

	/** A logger of the user's Log4j configuration file. */
	public static final FindingType INCLUDE_LOCATION = FindingType.declare("logging.include-location", WARNING,
			"A logger captures the caller's location: a stack walk per log event (~40% of the CPU in incident 3).",
			"This logger captures the caller's location: a stack walk per log event (~40%% of the CPU in "
					+ "incident 3).",
			"Set includeLocation=\"false\" on this logger in the Log4j configuration, and drop %%C %%F %%l %%L %%M "
					+ "from layouts.");

	/**
	 * A logger Boot created from {@code logging.level.*} while the starter's removal of
	 * its location capture is off ({@code safe-defaults.logging.enabled=false}).
	 */
	public static final FindingType INCLUDE_LOCATION_BECAUSE_LEVEL_PROPERTY_AND_STARTER_OFF = INCLUDE_LOCATION.because(
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
	public static final FindingType INCLUDE_LOCATION_BECAUSE_LEVEL_PROPERTY = INCLUDE_LOCATION.because(
			"Boot created this logger from logging.level.%1$s and made it capture the caller's location: a stack "
					+ "walk per log event under it (~40%% of the CPU in incident 3).",
			"Declare the logger in your Log4j configuration file with includeLocation=\"false\" instead of "
					+ "logging.level.%1$s.");

	public static final FindingType LOCATION_PATTERN = FindingType.declare("logging.location-pattern", WARNING,
			"An appender's layout asks for the caller's location (%C %F %l %L %M, nested ones included): a stack "
					+ "walk per event, or '?' where location is not captured.",
			"The layout asks for the caller's location (%1$s): a stack walk per event where location is captured, "
					+ "'?' where it is not.",
			"Remove %1$s from the layout; log the class with %%c (the logger name).");

	/**
	 * A Logback appender's pattern: Logback computes the location whenever a converter
	 * asks for it, on the thread that renders the event.
	 */
	/**
	 * {@code logging.location-pattern} on Logback. Args: the words, the appender.
	 */
	public static final FindingType LOCATION_PATTERN_ON_LOGBACK = LOCATION_PATTERN.because(
			"The pattern of the Logback appender '%2$s' asks for the caller's location (%1$s): a stack walk per "
					+ "event (new Throwable().getStackTrace()) where the event is written on the calling thread, '?' "
					+ "behind an AsyncAppender without includeCallerData.",
			"Remove %1$s from the pattern of the appender '%2$s' in the Logback configuration; log the class with "
					+ "%%logger (the logger name).");

	public static final FindingType FULL_STACK_TRACES = FindingType.declare("logging.full-stack-traces", INFO,
			"A pattern layout prints every stack trace in full (%ex, %xEx, %rEx, Boot's %wEx or %xwEx, or no "
					+ "throwable converter, to which Log4j appends %xEx) instead of %throttledEx: in an error storm "
					+ "the background thread falls behind (incident 6).",
			"The layout prints every stack trace in full (%1$s): in an error storm the one background thread "
					+ "rendering 50-100-frame traces falls behind, and the backlog outlives the storm (incident 6).",
			"Render throwables with %%throttledEx: keep Boot's ${sys:LOG_EXCEPTION_CONVERSION_WORD} in the pattern "
					+ "(the starter makes it %%throttledEx) or write %%throttledEx where the pattern has %%ex, %%xEx, "
					+ "%%rEx, %%wEx or %%xwEx.");

	/**
	 * {@code logging.full-stack-traces} on Logback. Args: how traces are printed, the
	 * appender.
	 */
	public static final FindingType FULL_STACK_TRACES_ON_LOGBACK = FULL_STACK_TRACES.because(
			"The pattern of the Logback appender '%2$s' prints every stack trace in full (%1$s): in an error storm "
					+ "the thread writing the events (the caller, or the queue's one worker) renders 50-100-frame "
					+ "traces and falls behind, and the backlog outlives the storm (incident 6).",
			"Render throwables with %%throttledEx in the pattern of the appender '%2$s' (the starter registers the "
					+ "word for Logback): keep Boot's ${LOG_EXCEPTION_CONVERSION_WORD} (the starter makes it "
					+ "%%throttledEx) or write %%throttledEx in place of %1$s; %%nopex prints no trace at all.");

	/**
	 * A queue-full policy set by the user through {@code log4j2.asyncQueueFullPolicy}.
	 */
	public static final FindingType BLOCKING_QUEUE_FULL = FindingType.declare("logging.blocking-queue-full", WARNING,
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
	public static final FindingType BLOCKING_QUEUE_FULL_BECAUSE_JVM_LEVEL_OFF = BLOCKING_QUEUE_FULL.because(
			"Log4j's default queue-full policy blocks (the starter's Log4j defaults are off at JVM level): when the "
					+ "async ring buffer is full, threads that log INFO wait for the background thread "
					+ "(incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
			"Remove -Dsafe-defaults.logging.enabled=false / safe-defaults.enabled=false (or the environment "
					+ "variable) so that the starter's policy discards INFO and below under pressure.");

	/**
	 * The starter's policy in block mode, because of
	 * {@code safe-defaults.logging.queue-full-policy=block}.
	 */
	public static final FindingType BLOCKING_QUEUE_FULL_BECAUSE_BLOCK_MODE = BLOCKING_QUEUE_FULL.because(
			"safe-defaults.logging.queue-full-policy=block: when the async ring buffer is full, threads that log "
					+ "INFO wait for the background thread (incident 2: request threads blocked, 6,033 vs 8,035 QPS), "
					+ "and WARN and ERROR wait without a bound, for as long as the output stalls.",
			"Set safe-defaults.logging.queue-full-policy=discard (the default): INFO and below are then discarded "
					+ "and counted, and WARN and ERROR wait at most safe-defaults.logging.queue-full-timeout.");

	/**
	 * The starter's policy in block mode, because the feature was switched off in
	 * application properties.
	 */
	public static final FindingType BLOCKING_QUEUE_FULL_BECAUSE_STARTER_OFF = BLOCKING_QUEUE_FULL.because(
			"safe-defaults.logging.enabled=false in application properties made the queue-full policy block as "
					+ "Log4j's does: when the async ring buffer is full, threads that log INFO wait for the background "
					+ "thread (incident 2: request threads blocked, 6,033 vs 8,035 QPS).",
			"Remove safe-defaults.logging.enabled=false: the starter's policy then discards INFO and below under "
					+ "pressure and counts them.");

	/**
	 * A log output that took nothing while a WARN or ERROR waited the whole
	 * {@code queue-full-timeout} (issue 49): raised while it stays stalled.
	 */
	public static final FindingType OUTPUT_STALLED = FindingType.declare("logging.output-stalled", WARNING,
			"A log output took nothing while a WARN or ERROR waited the whole queue-full timeout for room: until "
					+ "its queue drains, WARN and ERROR events are dropped without waiting, and counted.",
			"The log output %1$s took nothing while a WARN or ERROR waited %2$s for room in its full queue (stalled "
					+ "since %3$s): until its queue has drained to half, WARN and ERROR events are dropped without "
					+ "waiting and counted by level (safedefaults.logging.dropped; the latest are in the logging "
					+ "status at the safedefaults endpoint), so that no log call holds a request; the first line "
					+ "written once it moves says how many were lost, the first and the last.",
			"Find why the output stopped taking lines: a log shipper, container log driver or terminal that stopped "
					+ "reading stdout, a full disk, a remote appender's network. "
					+ "safe-defaults.logging.queue-full-timeout sets how long a WARN or ERROR waits first; "
					+ "queue-full-policy=block makes every event wait for as long as the output stalls.");

	public static final FindingType FORMAT_MSG_ASYNC = FindingType.declare("logging.format-msg-async", WARNING,
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
		return List.of(NOT_LOG4J2, LOGBACK_CONFIGURATION_IGNORED, LOG4J2_CONFIGURATION_IGNORED, DISRUPTOR_4,
				SYNC_LOGGERS, TWO_QUEUES, INCLUDE_LOCATION, LOCATION_PATTERN, BLOCKING_QUEUE_FULL, FORMAT_MSG_ASYNC,
				FULL_STACK_TRACES, NO_SHUTDOWN_HOOK, OUTPUT_STALLED);
	}

}
