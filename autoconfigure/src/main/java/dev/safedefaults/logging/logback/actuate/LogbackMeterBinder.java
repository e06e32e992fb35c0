package dev.safedefaults.logging.logback.actuate;

import java.util.function.LongSupplier;

import dev.safedefaults.logging.LoggingFeature;
import dev.safedefaults.logging.logback.LogbackAsyncWrapping;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The logging metrics on Logback, under the same names as on Log4j2:
 * {@code safedefaults.logging.discarded} (events this application context's wrapped
 * appenders discarded because their queue was full) and
 * {@code safedefaults.logging.stack-traces.elided} (stack traces {@code %throttledEx}
 * replaced by one line). Logback has no ring buffer, so
 * {@code safedefaults.logging.ring-buffer.remaining} is not registered.
 */
final class LogbackMeterBinder implements MeterBinder {

	private final LogbackAsyncWrapping wrapping;

	private final LongSupplier elided;

	LogbackMeterBinder(LogbackAsyncWrapping wrapping, LongSupplier elided) {
		this.wrapping = wrapping;
		this.elided = elided;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder(LoggingFeature.DISCARDED_METRIC, this.wrapping, LogbackAsyncWrapping::discardedCount)
			.description("Log events discarded because the async queue was full (never WARN or above)")
			.baseUnit("events")
			.register(registry);
		FunctionCounter.builder(LoggingFeature.STACK_TRACES_ELIDED_METRIC, this.elided, LongSupplier::getAsLong)
			.description("Stack traces %throttledEx replaced by one line because their kind was printed in full "
					+ "often enough in the interval (one per rendering)")
			.baseUnit("stack traces")
			.register(registry);
	}

}
