package dev.safedefaults.logging;

import java.time.Duration;

import dev.safedefaults.PropertyBounds;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Log4j2 defaults: all-async loggers, discard-and-count under pressure, no caller
 * location, throttled stack traces. Log4j starts before Spring, so all-async and the ring
 * buffer size are fixed by JVM-level keys (system properties or environment variables);
 * what can change after start is here.
 */
@ConfigurationProperties("safe-defaults.logging")
public class LoggingDefaultsProperties implements InitializingBean {

	/**
	 * The default ring buffer size, in slots (on Logback, each wrapped appender's queue
	 * capacity). Each slot that has carried an event holds about 320–360 bytes of heap,
	 * so 32,768 slots preallocate ~11 MB (Log4j's web default of 262,144 holds ~90 MB),
	 * and absorb a complete appender stall of ~1.4 s at the incident's 24,000 log events
	 * per second before INFO starts to be discarded.
	 */
	public static final int DEFAULT_RING_BUFFER_SIZE = 32_768;

	/**
	 * How long a WARN or ERROR waits for room in a full queue by default: what a stalled
	 * output costs a request, once per stall. Behind a live output, however slow, room
	 * comes sooner (issue 49, BENCHMARKS.md: 1,600 of 1,600 WARN and ERROR written to an
	 * output of 5,000 lines/s with the ring full, every ERROR behind a reader of 200
	 * KB/s).
	 */
	public static final Duration DEFAULT_QUEUE_FULL_TIMEOUT = Duration.ofSeconds(2);

	/** The longest wait for room the starter accepts. */
	public static final Duration MAX_QUEUE_FULL_TIMEOUT = Duration.ofMinutes(1);

	/** The smallest ring buffer Log4j accepts. */
	public static final int MIN_RING_BUFFER_SIZE = 128;

	/**
	 * The largest ring buffer the starter accepts: about 350 MB of heap once every slot
	 * has carried an event.
	 */
	public static final int MAX_RING_BUFFER_SIZE = 1_048_576;

	/**
	 * Whether the logging defaults are on. All-async logging and the ring buffer size are
	 * fixed when Log4j starts, before Spring: switch them off with the JVM-level key
	 * (-Dsafe-defaults.logging.enabled=false or SAFEDEFAULTS_LOGGING_ENABLED=false). Set
	 * in application properties, it switches off what can change after start: the
	 * discarding queue-full policy and the removal of location capture. On Logback, in
	 * application properties, it leaves the application's appenders unwrapped
	 * (synchronous).
	 */
	private boolean enabled = true;

	/**
	 * What a logging thread does when the async ring buffer is full: 'discard' drops
	 * events at or below the discard threshold and counts them, and WARN and ERROR wait
	 * at most queue-full-timeout; 'block' makes every event wait for as long as the
	 * buffer stays full. Changeable at runtime. On Logback, the same for each wrapped
	 * appender's queue, fixed when the appenders are wrapped.
	 */
	private QueueFullMode queueFullPolicy = QueueFullMode.DISCARD;

	/**
	 * With the 'discard' policy, how long a WARN or ERROR event waits for room in a full
	 * queue (from 0, never wait, to 1m). When one has waited this long the output counts
	 * as stalled: until its queue has drained to half, later WARN and ERROR events are
	 * dropped at once, counted by level (safedefaults.logging.dropped) and the latest
	 * shown at the safedefaults endpoint; the first line written once it moves says how
	 * many were lost, from when to when, the first and the last. The starter's own
	 * threads never wait. With 'block' every event waits for as long as the queue stays
	 * full.
	 */
	private Duration queueFullTimeout = DEFAULT_QUEUE_FULL_TIMEOUT;

	/**
	 * The most severe level that may be discarded when the ring buffer is full: 'trace',
	 * 'debug' or 'info'. WARN and ERROR are never discarded without waiting
	 * queue-full-timeout first. On Logback, the same for each wrapped appender's queue.
	 */
	private DiscardThreshold discardThreshold = DiscardThreshold.INFO;

	/**
	 * Slots in each async ring buffer (from 128 to 1048576; Log4j rounds up to a power of
	 * two). JVM-level only: a system property (-Dsafe-defaults.logging.ring-buffer-size)
	 * or the environment variable SAFEDEFAULTS_LOGGING_RINGBUFFERSIZE, since the buffer
	 * is allocated when Log4j starts. Default 32768 (about 11 MB of heap). On Logback,
	 * the capacity of each wrapped appender's queue (one per appender), read from
	 * application properties too, since the appenders are wrapped when the application
	 * starts.
	 */
	private @Nullable Integer ringBufferSize;

	/**
	 * Stack traces in error storms: the first few of a kind in full, one line for the
	 * repeats.
	 */
	private final StackTraces stackTraces = new StackTraces();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public QueueFullMode getQueueFullPolicy() {
		return this.queueFullPolicy;
	}

	public void setQueueFullPolicy(QueueFullMode queueFullPolicy) {
		this.queueFullPolicy = queueFullPolicy;
	}

	public Duration getQueueFullTimeout() {
		return this.queueFullTimeout;
	}

	public void setQueueFullTimeout(Duration queueFullTimeout) {
		this.queueFullTimeout = queueFullTimeout;
	}

	public DiscardThreshold getDiscardThreshold() {
		return this.discardThreshold;
	}

	public void setDiscardThreshold(DiscardThreshold discardThreshold) {
		this.discardThreshold = discardThreshold;
	}

	public @Nullable Integer getRingBufferSize() {
		return this.ringBufferSize;
	}

	public void setRingBufferSize(@Nullable Integer ringBufferSize) {
		this.ringBufferSize = ringBufferSize;
	}

	public StackTraces getStackTraces() {
		return this.stackTraces;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange("safe-defaults.logging.queue-full-timeout", this.queueFullTimeout, Duration.ZERO,
				MAX_QUEUE_FULL_TIMEOUT, "such as 2s; 0 drops a WARN or ERROR at once when the queue is full");
		if (this.ringBufferSize != null) {
			PropertyBounds.requireRange("safe-defaults.logging.ring-buffer-size", this.ringBufferSize,
					MIN_RING_BUFFER_SIZE, MAX_RING_BUFFER_SIZE,
					"slots; Log4j rounds up to a power of two, and each slot that carried an event holds ~350 bytes");
		}
		this.stackTraces.validate();
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

	/**
	 * Stack traces in error storms (incident 6): Spring Boot's exception rendering
	 * ({@code logging.exception-conversion-word}) defaults to {@code %throttledEx}, which
	 * prints the full trace for the first few throwables of a kind in an interval and one
	 * line for the rest.
	 */
	public static class StackTraces {

		/** The most full stack traces of one kind per interval. */
		static final int MAX_FIRST_N = 10_000;

		/** The most kinds a layout remembers: ~30 MB. */
		static final int MAX_KINDS = 65_536;

		/**
		 * Whether the starter makes %throttledEx Spring Boot's default exception
		 * rendering (logging.exception-conversion-word, which Boot's Log4j2 configuration
		 * and any configuration using ${sys:LOG_EXCEPTION_CONVERSION_WORD} use). A
		 * logging.exception-conversion-word of the application's own always wins. A
		 * pattern that names %throttledEx itself keeps throttling either way.
		 */
		private boolean enabled = true;

		/**
		 * How many throwables of one kind are printed with their full stack trace in each
		 * interval; the rest get one line with the class, the message and how often the
		 * kind was seen. From 1 to 10000. A kind is the class of the throwable and of its
		 * causes with their first three stack frames outside the JDK.
		 */
		// The defaults are StackTraceThrottling's, written out so the IDE metadata shows
		// them.
		private int firstN = 3;

		/**
		 * The interval in which the first first-n throwables of a kind are printed in
		 * full; it starts with the first occurrence of the kind after the previous one
		 * ended. From 1ms to 1d.
		 */
		private Duration interval = Duration.ofMinutes(1);

		/**
		 * How many kinds of throwable each log layout remembers (~460 bytes each); beyond
		 * that the least recently seen kind is forgotten and prints its trace again when
		 * it returns. From 1 to 65536.
		 */
		private int maxKinds = 1024;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getFirstN() {
			return this.firstN;
		}

		public void setFirstN(int firstN) {
			this.firstN = firstN;
		}

		public Duration getInterval() {
			return this.interval;
		}

		public void setInterval(Duration interval) {
			this.interval = interval;
		}

		public int getMaxKinds() {
			return this.maxKinds;
		}

		public void setMaxKinds(int maxKinds) {
			this.maxKinds = maxKinds;
		}

		void validate() {
			String prefix = "safe-defaults.logging.stack-traces.";
			PropertyBounds.requireRange(prefix + "first-n", this.firstN, 1, MAX_FIRST_N,
					"the first throwable of each kind is always printed in full");
			PropertyBounds.requireRange(prefix + "interval", this.interval, Duration.ofMillis(1),
					PropertyBounds.MAX_INTERVAL, "such as 1m");
			PropertyBounds.requireRange(prefix + "max-kinds", this.maxKinds, 1, MAX_KINDS,
					"kinds each layout remembers, ~460 bytes each");
		}

	}

}
