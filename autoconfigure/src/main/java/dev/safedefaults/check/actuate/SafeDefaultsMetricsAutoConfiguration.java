package dev.safedefaults.check.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The {@code safedefaults.findings} gauge, when Micrometer is present. Boot binds every
 * {@link MeterBinder} bean to its registries.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(FindingsStore.class)
public final class SafeDefaultsMetricsAutoConfiguration {

	@Bean
	FindingsMeterBinder safeDefaultsFindingsMeterBinder(FindingsStore store) {
		return new FindingsMeterBinder(store);
	}

}
