package dev.safedefaults.check.actuate;

import java.util.Set;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.StartupCheckRunner;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The read-only {@code safedefaults} actuator endpoint, and its web extension that shows
 * the report only to the requests the health rules allow (see {@link FindingsAccess}).
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class,
		afterName = "org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration")
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(FindingsStore.class)
@EnableConfigurationProperties(SafeDefaultsHealthProperties.class)
public final class SafeDefaultsEndpointAutoConfiguration {

	private static final String HEALTH_ROLES = "management.endpoint.health.roles";

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	SafeDefaultsEndpoint safeDefaultsEndpoint(FindingsStore store, ObjectProvider<FeatureStatusReporter> features,
			ObjectProvider<StartupCheckRunner> runner) {
		return new SafeDefaultsEndpoint(store, features, runner);
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(endpoint = SafeDefaultsEndpoint.class)
	SafeDefaultsEndpointWebExtension safeDefaultsEndpointWebExtension(SafeDefaultsEndpoint endpoint,
			FindingsAccess findingsAccess) {
		return new SafeDefaultsEndpointWebExtension(endpoint, findingsAccess);
	}

	private static Set<String> healthRoles(Environment environment) {
		return Binder.get(environment).bind(HEALTH_ROLES, Bindable.setOf(String.class)).orElse(Set.of());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthEndpointGroups.class)
	static class HealthGroupsAccessConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FindingsAccess safeDefaultsFindingsAccess(ObjectProvider<HealthEndpointGroups> groups,
				SafeDefaultsHealthProperties properties, Environment environment) {
			return ofHealthGroups(groups.getIfAvailable(), properties.getShowDetails(), healthRoles(environment));
		}

		/**
		 * The rules of the {@code safe-defaults} health group; without it (the contributor
		 * switched off) {@code safe-defaults.health.show-details} with the health endpoint's
		 * roles, else the health endpoint's own rules. Without the health endpoint's groups
		 * at all, {@code safe-defaults.health.show-details} with the roles.
		 */
		private static FindingsAccess ofHealthGroups(@Nullable HealthEndpointGroups groups,
				@Nullable Show showDetails, Set<String> roles) {
			if (groups == null) {
				return FindingsAccess.ofProperty(showDetails, roles);
			}
			return (securityContext) -> {
				HealthEndpointGroup group = groups.get(SafeDefaultsHealthGroupEnvironmentPostProcessor.GROUP);
				if (group != null) {
					return group.showDetails(securityContext);
				}
				if (showDetails != null) {
					return showDetails.isShown(securityContext, roles);
				}
				return groups.getPrimary().showDetails(securityContext);
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups")
	static class PropertyAccessConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FindingsAccess safeDefaultsFindingsAccess(SafeDefaultsHealthProperties properties, Environment environment) {
			return FindingsAccess.ofProperty(properties.getShowDetails(), healthRoles(environment));
		}

	}

}
