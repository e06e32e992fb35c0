package dev.safedefaults.logging.logback;

import java.util.concurrent.atomic.LongAdder;

import ch.qos.logback.classic.Level;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.QueueFullMode;

/**
 * One application context's settings for the wrapped appenders, and its count of
 * discarded events: a restarted context (DevTools, a test's second context) wraps the new
 * appenders with its own settings and counts from zero.
 *
 * @param queueCapacity events each wrapped appender's queue holds
 * @param discard whether a full queue discards (else every event waits)
 * @param threshold the most severe level that may be discarded; never WARN or above
 * @param discarded the count of discarded events
 * @param stalls how long WARN and ERROR wait for room in discard mode, and what the
 * stalled outputs lost
 */
public record WrappingSettings(int queueCapacity, boolean discard, Level threshold, LongAdder discarded,
		LogStalls stalls) {

	/**
	 * Settings with a count starting at zero.
	 * @param queueCapacity events each wrapped appender's queue holds
	 * @param discard whether a full queue discards (else every event waits)
	 * @param threshold the most severe level that may be discarded; never WARN or above
	 * @param stalls how long WARN and ERROR wait for room in discard mode, and what the
	 * stalled outputs lost
	 */
	public WrappingSettings(int queueCapacity, boolean discard, Level threshold, LogStalls stalls) {
		this(queueCapacity, discard, threshold, new LongAdder(), stalls);
	}

	/**
	 * The settings of {@code safe-defaults.logging.*}, mapped as on Log4j2: the ring
	 * buffer size is each queue's capacity, the queue-full policy and the discard
	 * threshold are the same.
	 * @param properties the logging properties
	 * @param stalls the application context's stalls
	 * @return the settings, counting from zero
	 */
	static WrappingSettings of(LoggingDefaultsProperties properties, LogStalls stalls) {
		Integer size = properties.getRingBufferSize();
		return new WrappingSettings((size != null) ? size : LoggingDefaultsProperties.DEFAULT_RING_BUFFER_SIZE,
				properties.getQueueFullPolicy() == QueueFullMode.DISCARD,
				Level.toLevel(properties.getDiscardThreshold().name(), Level.INFO), stalls);
	}

	/**
	 * Whether an event may be discarded when the queue is full.
	 * @param level the event's level
	 * @return true for levels at or below the threshold, never for WARN or ERROR
	 */
	boolean mayDiscard(Level level) {
		// WARN and ERROR are never discarded, whatever the threshold says.
		return this.discard && level.toInt() < Level.WARN.toInt() && level.toInt() <= this.threshold.toInt();
	}

	void countDiscarded() {
		this.discarded.increment();
	}

	void countDiscarded(long count) {
		this.discarded.add(count);
	}

	/**
	 * How many events were discarded under these settings.
	 * @return the count
	 */
	public long discardedCount() {
		return this.discarded.sum();
	}

}
