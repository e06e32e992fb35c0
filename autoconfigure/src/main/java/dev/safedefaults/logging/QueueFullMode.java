package dev.safedefaults.logging;

/**
 * What to do with an event that finds the async queue full
 * ({@code safe-defaults.logging.queue-full-policy}), the same on either logging route:
 * Log4j2's ring buffer or Logback's wrapped appenders' queues.
 */
public enum QueueFullMode {

	/**
	 * Drop events at or below the threshold (never WARN or above), and count them.
	 */
	DISCARD,

	/** Every event waits for space: the request thread blocks (Log4j's default). */
	BLOCK

}
