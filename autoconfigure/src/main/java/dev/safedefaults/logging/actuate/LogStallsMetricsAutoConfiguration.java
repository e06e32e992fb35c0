package dev.safedefaults.logging.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The WARN and ERROR events a stalled log output could not take
 * ({@link LogStallsMeterBinder}), on either logging route, when Micrometer is present.
 */
@AutoConfiguration(after = LoggingDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(LogStalls.class)
public final class LogStallsMetricsAutoConfiguration {

	@Bean
	MeterBinder safeDefaultsLogStallsMeterBinder(LogStalls stalls) {
		return new LogStallsMeterBinder(stalls);
	}

}
