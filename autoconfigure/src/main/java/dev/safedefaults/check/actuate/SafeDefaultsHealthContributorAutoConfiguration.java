package dev.safedefaults.check.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code safeDefaults} health contributor, always {@code UP}, with the findings in its
 * details. {@link SafeDefaultsHealthGroupEnvironmentPostProcessor} adds the
 * {@code safe-defaults} health group that shows it. Off with
 * {@code management.health.safe-defaults.enabled=false}.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(FindingsStore.class)
public final class SafeDefaultsHealthContributorAutoConfiguration {

	/** The bean name; Boot names the contributor {@code safeDefaults} after it. */
	static final String BEAN_NAME = "safeDefaultsHealthIndicator";

	@Bean(BEAN_NAME)
	@ConditionalOnMissingBean(name = BEAN_NAME)
	@ConditionalOnEnabledHealthIndicator(SafeDefaultsHealthGroupEnvironmentPostProcessor.HEALTH_INDICATOR)
	SafeDefaultsHealthIndicator safeDefaultsHealthIndicator(FindingsStore store) {
		return new SafeDefaultsHealthIndicator(store);
	}

}
