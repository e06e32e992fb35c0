package dev.safedefaults.httpclient.timeouts;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.SafeDefaultsProperties;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.web.service.registry.HttpServiceProxyRegistry;

/**
 * Gives the HTTP clients Boot builds a connect and a read timeout where the application
 * sets none (incident 6), in Boot's own {@code HttpClientSettings} bean as it is made
 * ({@link TimeoutDecisions}), and reports and checks them. The status reporter is there
 * whether Boot's HTTP client support is present or not.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class, afterName = {
		"org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration",
		"org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration" })
@ConditionalOnSafeDefaultsEnabled
public final class HttpClientTimeoutsAutoConfiguration {

	@Bean
	FeatureStatusReporter safeDefaultsHttpClientTimeoutsFeatureStatus(ConfigurableEnvironment environment,
			ObjectProvider<BootClientTimeouts> timeouts) {
		return new HttpClientTimeoutsFeatureStatus(HttpClientTimeoutsDefaults.isOn(environment), timeouts);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.springframework.boot.http.client.HttpClientSettings",
			"org.springframework.web.service.registry.HttpServiceProxyRegistry" })
	static class BootClientsConfiguration {

		@Bean
		static TimeoutDecisions safeDefaultsHttpClientTimeoutDecisions(ConfigurableEnvironment environment) {
			return new TimeoutDecisions(environment);
		}

		@Bean
		BootClientTimeouts safeDefaultsBootClientTimeouts(ConfigurableListableBeanFactory beanFactory,
				TimeoutDecisions decisions, ObjectProvider<HttpClientSettings> settings,
				ObjectProvider<HttpServiceProxyRegistry> registry,
				ObjectProvider<HttpServiceClientProperties> groupProperties) {
			return new BootClientTimeouts(beanFactory, decisions, settings, registry, groupProperties);
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnBooleanProperty(name = SafeDefaultsProperties.CHECKS_ENABLED_PROPERTY, matchIfMissing = true)
		static class ChecksConfiguration {

			@Bean
			ClientTimeoutsCheck safeDefaultsClientTimeoutsCheck(BootClientTimeouts timeouts,
					TimeoutDecisions decisions) {
				return new ClientTimeoutsCheck(timeouts, decisions.defaultsOn());
			}

		}

	}

}
