package dev.safedefaults.logging.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The logging metrics, when Micrometer and Log4j core are present.
 */
@AutoConfiguration(after = LoggingDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(value = MeterBinder.class, name = "org.apache.logging.log4j.core.async.AsyncLoggerContext")
public final class LoggingMetricsAutoConfiguration {

	@Bean
	LoggingMeterBinder safeDefaultsLoggingMeterBinder() {
		return new LoggingMeterBinder();
	}

}
