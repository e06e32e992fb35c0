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
 * Reports and checks the timeouts of the HTTP clients Boot builds (incident 6); the
 * defaults themselves are set before the context exists, by
 * {@link HttpClientTimeoutsDefaults}, in Boot's own settings. The status reporter is
 * there whether Boot's HTTP client support is present or not.
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
		BootClientTimeouts safeDefaultsBootClientTimeouts(ConfigurableEnvironment environment,
				ConfigurableListableBeanFactory beanFactory, ObjectProvider<HttpClientSettings> settings,
				ObjectProvider<HttpServiceProxyRegistry> registry,
				ObjectProvider<HttpServiceClientProperties> groupProperties) {
			return new BootClientTimeouts(environment, beanFactory, settings, registry, groupProperties);
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnBooleanProperty(name = SafeDefaultsProperties.CHECKS_ENABLED_PROPERTY, matchIfMissing = true)
		static class ChecksConfiguration {

			@Bean
			ClientTimeoutsCheck safeDefaultsClientTimeoutsCheck(BootClientTimeouts timeouts,
					ConfigurableEnvironment environment) {
				return new ClientTimeoutsCheck(timeouts, HttpClientTimeoutsDefaults.isOn(environment));
			}

		}

	}

}
