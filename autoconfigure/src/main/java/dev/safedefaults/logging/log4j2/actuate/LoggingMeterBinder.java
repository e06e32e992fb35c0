package dev.safedefaults.logging.log4j2.actuate;

import java.util.function.LongSupplier;

import dev.safedefaults.logging.LoggingFeature;
import dev.safedefaults.logging.log4j2.CountingQueueFullPolicy;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
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
 * the all-async ring buffer (a gauge); {@code safedefaults.logging.stack-traces.elided}:
 * stack traces left out by {@code %throttledEx} (a cumulative counter).
 */
public class LoggingMeterBinder implements MeterBinder {

	/** Name of the discarded-events counter. */
	public static final String DISCARDED = LoggingFeature.DISCARDED_METRIC;

	/** Name of the remaining-capacity gauge. */
	public static final String RING_BUFFER_REMAINING = "safedefaults.logging.ring-buffer.remaining";

	/** Name of the elided-stack-traces counter. */
	public static final String STACK_TRACES_ELIDED = LoggingFeature.STACK_TRACES_ELIDED_METRIC;

	private final LongSupplier discarded;

	private final LongSupplier elided;

	/**
	 * Meters reading the counts in force (no application context's own settings).
	 */
	public LoggingMeterBinder() {
		this(CountingQueueFullPolicy::discardedCount, StackTraceThrottling::elidedCount);
	}

	/**
	 * Meters reading an application context's own counts.
	 * @param discarded the events its queue-full settings discarded
	 * @param elided the stack traces its throttling settings left out
	 */
	public LoggingMeterBinder(LongSupplier discarded, LongSupplier elided) {
		this.discarded = discarded;
		this.elided = elided;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder(DISCARDED, this.discarded, LongSupplier::getAsLong)
			.description("Log events discarded because the async ring buffer was full (never WARN or above)")
			.baseUnit("events")
			.register(registry);
		FunctionCounter.builder(STACK_TRACES_ELIDED, this.elided, LongSupplier::getAsLong)
			.description("Stack traces %throttledEx replaced by one line because their kind was printed in full "
					+ "often enough in the interval (one per rendering)")
			.baseUnit("stack traces")
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
