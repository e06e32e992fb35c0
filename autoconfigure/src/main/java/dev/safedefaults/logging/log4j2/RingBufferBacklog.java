package dev.safedefaults.logging.log4j2;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import dev.safedefaults.logging.stop.Unwritten;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.async.RingBufferLogEvent;
import org.jspecify.annotations.Nullable;

/**
 * The events still queued in an all-async Log4j context's ring buffer. Log4j keeps its
 * Disruptor private ({@code AsyncLoggerContext.loggerDisruptor}, a package-private
 * {@code getDisruptor()}); this reaches it once, at startup, and keeps the ring buffer,
 * which stays valid after Log4j has dropped its own reference when it stops.
 * <p>
 * A slot holds an event that was not written yet from the moment a logging thread fills
 * it until the background thread has passed it to the appenders and cleared it
 * ({@link RingBufferLogEvent#isPopulated()}), so counting the filled slots, by level,
 * counts exactly the events enqueued and not yet written.
 */
final class RingBufferBacklog {

	private final RingBuffer<RingBufferLogEvent> ringBuffer;

	private RingBufferBacklog(RingBuffer<RingBufferLogEvent> ringBuffer) {
		this.ringBuffer = ringBuffer;
	}

	/**
	 * The backlog of a context's ring buffer.
	 * @param context the logger context
	 * @return its backlog, or {@code null} when the context is not all-async, is not
	 * started, or this Log4j version hides its ring buffer differently
	 */
	static @Nullable RingBufferBacklog of(LoggerContext context) {
		if (!(context instanceof AsyncLoggerContext)) {
			return null;
		}
		try {
			Field field = AsyncLoggerContext.class.getDeclaredField("loggerDisruptor");
			field.setAccessible(true);
			Object loggerDisruptor = field.get(context);
			Method getDisruptor = loggerDisruptor.getClass().getDeclaredMethod("getDisruptor");
			getDisruptor.setAccessible(true);
			@SuppressWarnings("unchecked")
			Disruptor<RingBufferLogEvent> disruptor = (Disruptor<RingBufferLogEvent>) getDisruptor
				.invoke(loggerDisruptor);
			return (disruptor != null) ? new RingBufferBacklog(disruptor.getRingBuffer()) : null;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	/**
	 * Whether the background thread has events left to write: Log4j's own test
	 * ({@code AsyncLoggerDisruptor.hasBacklog}).
	 * @return whether some slot has not been consumed
	 */
	boolean hasBacklog() {
		return !this.ringBuffer.hasAvailableCapacity(this.ringBuffer.getBufferSize());
	}

	/**
	 * Whether a slot is free.
	 * @return true when an event can be enqueued without waiting
	 */
	boolean hasRoom() {
		return this.ringBuffer.remainingCapacity() > 0;
	}

	/**
	 * Whether the background thread has drained the buffer to half its size or less.
	 * @return true when at least half the slots are free
	 */
	boolean isHalfEmpty() {
		return this.ringBuffer.remainingCapacity() >= this.ringBuffer.getBufferSize() / 2;
	}

	/**
	 * Counts the events enqueued and not yet written.
	 * @return the count, with WARN and more severe levels counted apart
	 */
	Unwritten count() {
		long total = 0;
		long severe = 0;
		int size = this.ringBuffer.getBufferSize();
		for (int slot = 0; slot < size; slot++) {
			RingBufferLogEvent event = this.ringBuffer.get(slot);
			if (event.isPopulated()) {
				total++;
				Level level = event.getLevel();
				if (level != null && level.isMoreSpecificThan(Level.WARN)) {
					severe++;
				}
			}
		}
		return new Unwritten(total, severe);
	}

}
