package dev.safedefaults.logging.logback.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.logging.actuate.LoggingMeterBinder;
import dev.safedefaults.logging.actuate.LoggingMetricsAutoConfiguration;
import dev.safedefaults.logging.logback.LogbackAsyncAutoConfiguration;
import dev.safedefaults.logging.logback.LogbackAsyncWrapping;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * {@code safedefaults.logging.discarded} on Logback: the events this application
 * context's wrapped appenders discarded because their queue was full (never WARN or
 * above). It comes before the Log4j2 metrics, which step aside when it is there (both
 * libraries on the class path, Logback running).
 */
@AutoConfiguration(after = LogbackAsyncAutoConfiguration.class, before = LoggingMetricsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(LogbackAsyncWrapping.class)
public final class LogbackLoggingMetricsAutoConfiguration {

	/** The bean's name, which the Log4j2 metrics look for. */
	public static final String METER_BINDER = "safeDefaultsLogbackMeterBinder";

	@Bean(METER_BINDER)
	MeterBinder safeDefaultsLogbackMeterBinder(LogbackAsyncWrapping wrapping) {
		return (registry) -> FunctionCounter
			.builder(LoggingMeterBinder.DISCARDED, wrapping, LogbackAsyncWrapping::discardedCount)
			.description("Log events discarded because the async queue was full (never WARN or above)")
			.baseUnit("events")
			.register(registry);
	}

}
