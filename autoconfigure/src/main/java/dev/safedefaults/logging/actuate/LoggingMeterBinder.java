package dev.safedefaults.logging.actuate;

import dev.safedefaults.logging.CountingQueueFullPolicy;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;

/**
 * {@code safedefaults.logging.discarded}: events the queue-full policy dropped (a
 * cumulative counter); {@code safedefaults.logging.ring-buffer.remaining}: free slots in
 * the all-async ring buffer (a gauge).
 */
public class LoggingMeterBinder implements MeterBinder {

	/** Name of the discarded-events counter. */
	public static final String DISCARDED = "safedefaults.logging.discarded";

	/** Name of the remaining-capacity gauge. */
	public static final String RING_BUFFER_REMAINING = "safedefaults.logging.ring-buffer.remaining";

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder(DISCARDED, CountingQueueFullPolicy.class, (type) -> CountingQueueFullPolicy.discardedCount())
			.description("Log events discarded because the async ring buffer was full (never WARN or above)")
			.baseUnit("events")
			.register(registry);
		if (LogManager.getContext(false) instanceof AsyncLoggerContext context) {
			Gauge.builder(RING_BUFFER_REMAINING, context, LoggingMeterBinder::remaining)
				.description("Free slots in the async loggers' ring buffer")
				.baseUnit("slots")
				.register(registry);
		}
	}

	private static double remaining(LoggerContext context) {
		return (context instanceof AsyncLoggerContext async) ? async.createRingBufferAdmin().getRemainingCapacity() : 0;
	}

}
