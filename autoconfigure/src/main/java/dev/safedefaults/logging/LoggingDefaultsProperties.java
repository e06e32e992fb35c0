package dev.safedefaults.logging;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Log4j2 defaults: all-async loggers, discard-and-count under pressure, no caller
 * location. Log4j starts before Spring, so all-async and the ring buffer size are fixed by
 * JVM-level keys (system properties or environment variables); what can change after
 * start is here.
 */
@ConfigurationProperties("safe-defaults.logging")
public class LoggingDefaultsProperties {

	/**
	 * Whether the logging defaults are on. All-async logging and the ring buffer size are
	 * fixed when Log4j starts, before Spring: switch them off with the JVM-level key
	 * (-Dsafe-defaults.logging.enabled=false or SAFEDEFAULTS_LOGGING_ENABLED=false). Set in
	 * application properties, it switches off what can change after start: the discarding
	 * queue-full policy and the removal of location capture.
	 */
	private boolean enabled = true;

	/**
	 * What a logging thread does when the async ring buffer is full: 'discard' drops events
	 * at or below the discard threshold and counts them (WARN and ERROR always wait);
	 * 'block' makes every event wait. Changeable at runtime.
	 */
	private CountingQueueFullPolicy.Mode queueFullPolicy = CountingQueueFullPolicy.Mode.DISCARD;

	/**
	 * The most severe level that may be discarded when the ring buffer is full: 'trace',
	 * 'debug' or 'info'. WARN and ERROR are never discarded.
	 */
	private DiscardThreshold discardThreshold = DiscardThreshold.INFO;

	/**
	 * Slots in each async ring buffer (at least 128; Log4j rounds up to a power of two).
	 * JVM-level only: a system property (-Dsafe-defaults.logging.ring-buffer-size) or the
	 * environment variable SAFEDEFAULTS_LOGGING_RINGBUFFERSIZE, since the buffer is
	 * allocated when Log4j starts. Default 32768 (about 11 MB of heap).
	 */
	private Integer ringBufferSize;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public CountingQueueFullPolicy.Mode getQueueFullPolicy() {
		return this.queueFullPolicy;
	}

	public void setQueueFullPolicy(CountingQueueFullPolicy.Mode queueFullPolicy) {
		this.queueFullPolicy = queueFullPolicy;
	}

	public DiscardThreshold getDiscardThreshold() {
		return this.discardThreshold;
	}

	public void setDiscardThreshold(DiscardThreshold discardThreshold) {
		this.discardThreshold = discardThreshold;
	}

	public Integer getRingBufferSize() {
		return this.ringBufferSize;
	}

	public void setRingBufferSize(Integer ringBufferSize) {
		this.ringBufferSize = ringBufferSize;
	}

	/**
	 * The levels that may be discarded: never WARN or above.
	 */
	public enum DiscardThreshold {

		/** Only TRACE may be discarded. */
		TRACE,

		/** TRACE and DEBUG may be discarded. */
		DEBUG,

		/** TRACE, DEBUG and INFO may be discarded. */
		INFO

	}

}
