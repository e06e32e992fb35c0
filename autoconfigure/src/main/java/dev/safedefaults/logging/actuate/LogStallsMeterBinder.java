package dev.safedefaults.logging.actuate;

import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingFeature;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * {@code safedefaults.logging.dropped}, tagged {@code level=warn} and
 * {@code level=error}: the WARN and ERROR events that found their queue full and were
 * dropped, after waiting the queue-full timeout or while their output was stalled, or at
 * once on the starter's own threads (issue 49). Cumulative counters, on either logging
 * route.
 */
final class LogStallsMeterBinder implements MeterBinder {

	private final LogStalls stalls;

	LogStallsMeterBinder(LogStalls stalls) {
		this.stalls = stalls;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder(LoggingFeature.DROPPED_METRIC, this.stalls, LogStalls::warnDropped)
			.tag("level", "warn")
			.description("WARN events dropped because their output's queue stayed full for the queue-full timeout "
					+ "or the output was stalled")
			.baseUnit("events")
			.register(registry);
		FunctionCounter.builder(LoggingFeature.DROPPED_METRIC, this.stalls, LogStalls::errorDropped)
			.tag("level", "error")
			.description("ERROR and FATAL events dropped because their output's queue stayed full for the "
					+ "queue-full timeout or the output was stalled")
			.baseUnit("events")
			.register(registry);
	}

}
