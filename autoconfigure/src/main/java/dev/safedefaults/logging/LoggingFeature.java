package dev.safedefaults.logging;

/**
 * What the logging feature is called wherever either route reports it: its status in the
 * startup line and the endpoint, and its metrics, whose names are the same on Log4j2 and
 * on Logback.
 */
public final class LoggingFeature {

	/** The feature's name in its status, the same on either logging system. */
	public static final String NAME = "logging";

	/**
	 * Events discarded because the async queue was full (never WARN or above): a
	 * cumulative counter.
	 */
	public static final String DISCARDED_METRIC = "safedefaults.logging.discarded";

	/**
	 * WARN and ERROR events dropped because their queue stayed full for the queue-full
	 * timeout or their output was stalled, tagged {@code level}: cumulative counters.
	 */
	public static final String DROPPED_METRIC = "safedefaults.logging.dropped";

	/**
	 * Stack traces {@code %throttledEx} replaced by one line: a cumulative counter.
	 */
	public static final String STACK_TRACES_ELIDED_METRIC = "safedefaults.logging.stack-traces.elided";

	private LoggingFeature() {
	}

}
