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
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
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

	/**
	 * Where Boot's health endpoint exists, the findings are shown as the
	 * {@code safe-defaults} group's details are: the group asks Boot.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HealthEndpointGroups.class)
	static class HealthGroupsAccessConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FindingsAccess safeDefaultsFindingsAccess(ObjectProvider<HealthEndpointGroups> groups,
				ObjectProvider<HealthEndpointProperties> health, SafeDefaultsHealthProperties properties,
				Environment environment) {
			return access(groups.getIfAvailable(), health.getIfAvailable(), properties, environment);
		}

		/**
		 * The group's details rule; with the health endpoint off (no groups), the
		 * starter's property as without Boot's health support.
		 */
		private static FindingsAccess access(@Nullable HealthEndpointGroups groups,
				@Nullable HealthEndpointProperties health, SafeDefaultsHealthProperties properties,
				Environment environment) {
			if (groups == null || health == null) {
				return FindingsAccess.ofProperty(properties.getShowDetails(),
						PropertyAccessConfiguration.healthRoles(environment));
			}
			return (securityContext) -> group(groups, health, properties).showDetails(securityContext);
		}

		/**
		 * The {@code safe-defaults} group; when the contributor is off (no group), the
		 * group it would be, so the endpoint keeps the same rules.
		 */
		private static HealthEndpointGroup group(HealthEndpointGroups groups, HealthEndpointProperties health,
				SafeDefaultsHealthProperties properties) {
			HealthEndpointGroup group = groups.get(SafeDefaultsHealthEndpointGroup.NAME);
			return (group != null) ? group
					: SafeDefaultsHealthEndpointGroup.of(groups, health, properties.getShowDetails());
		}

	}

	/**
	 * Without Boot's health endpoint there is no group to ask: the starter's property
	 * with the roles the application set for health.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups")
	static class PropertyAccessConfiguration {

		private static final String HEALTH_ROLES = "management.endpoint.health.roles";

		@Bean
		@ConditionalOnMissingBean
		FindingsAccess safeDefaultsFindingsAccess(SafeDefaultsHealthProperties properties, Environment environment) {
			return FindingsAccess.ofProperty(properties.getShowDetails(), healthRoles(environment));
		}

		static Set<String> healthRoles(Environment environment) {
			return Binder.get(environment).bind(HEALTH_ROLES, Bindable.setOf(String.class)).orElse(Set.of());
		}

	}

}
