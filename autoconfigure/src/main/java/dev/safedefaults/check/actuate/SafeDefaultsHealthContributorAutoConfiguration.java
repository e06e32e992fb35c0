package dev.safedefaults.check.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code safeDefaults} health contributor, always {@code UP}, with the findings in
 * its details, and the {@code safe-defaults} health group that shows it, added to Boot's
 * groups by a {@link HealthEndpointGroupsPostProcessor}. Both off with
 * {@code management.health.safe-defaults.enabled=false}.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(FindingsStore.class)
@EnableConfigurationProperties(SafeDefaultsHealthProperties.class)
public final class SafeDefaultsHealthContributorAutoConfiguration {

	/** The bean name; Boot names the contributor {@code safeDefaults} after it. */
	static final String BEAN_NAME = "safeDefaultsHealthIndicator";

	/** The health indicator's key in {@code management.health.<key>.enabled}. */
	static final String HEALTH_INDICATOR = "safe-defaults";

	@Bean(BEAN_NAME)
	@ConditionalOnMissingBean(name = BEAN_NAME)
	@ConditionalOnEnabledHealthIndicator(HEALTH_INDICATOR)
	SafeDefaultsHealthIndicator safeDefaultsHealthIndicator(FindingsStore store) {
		return new SafeDefaultsHealthIndicator(store);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ HealthEndpointGroupsPostProcessor.class, AdditionalPathsMapper.class })
	@ConditionalOnEnabledHealthIndicator(HEALTH_INDICATOR)
	static class HealthGroupConfiguration {

		@Bean
		SafeDefaultsHealthEndpointGroupsPostProcessor safeDefaultsHealthEndpointGroupsPostProcessor(
				ObjectProvider<HealthEndpointProperties> health, SafeDefaultsHealthProperties properties) {
			return new SafeDefaultsHealthEndpointGroupsPostProcessor(
					health.getIfAvailable(HealthEndpointProperties::new), properties);
		}

	}

}
