package dev.safedefaults.httpclient.restclient;

import java.util.function.Supplier;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.SharedClientConverters;
import dev.safedefaults.httpclient.SharedConvertersOutcome;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Gives every {@code RestClient} built from Boot's {@code RestClient.Builder}, and so
 * every HTTP service group ({@code @ImportHttpServices},
 * {@code spring.http.serviceclient.*}), the converters set built once and shared with the
 * Feign clients; checks for clients built per request and groups left without JSON.
 * <p>
 * Boot applies every {@code RestClientCustomizer} bean to the builders it hands out and
 * to each group's builder: the starter's customizer is the one way in. The status
 * reporter is there whether the library is present or not;
 * {@code safe-defaults.restclient.enabled=false} removes the default, not the checks.
 */
@AutoConfiguration(after = { SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class },
		afterName = { "org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration",
				"org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration" })
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(RestClientProperties.class)
public final class RestClientConvertersAutoConfiguration {

	@Bean
	FeatureStatusReporter safeDefaultsRestClientFeatureStatus(RestClientProperties properties,
			ObjectProvider<RestClientBuilds> builds, ObjectProvider<SharedConvertersOutcome> outcome) {
		return new RestClientFeatureStatus(properties, builds, outcome);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.springframework.web.client.RestClient",
			"org.springframework.boot.restclient.RestClientCustomizer",
			"org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer" })
	static class RestClientConfiguration {

		@Bean
		RestClientBuilds safeDefaultsRestClientBuilds(ObjectProvider<FindingsStore> store) {
			return new RestClientBuilds(store);
		}

		/**
		 * First of the customizers, so that one of the application's that configures
		 * converters (its own JSON converter) runs after it and wins.
		 */
		@Bean
		@Order(Ordered.HIGHEST_PRECEDENCE)
		SharedConvertersRestClientCustomizer safeDefaultsSharedConvertersRestClientCustomizer(
				RestClientProperties properties, ObjectProvider<SharedClientConverters> shared,
				RestClientBuilds builds) {
			return new SharedConvertersRestClientCustomizer(sharedIfEnabled(properties, shared), builds);
		}

		@Bean
		HttpServiceGroupsRecorder safeDefaultsHttpServiceGroupsRecorder(RestClientBuilds builds,
				RestClientProperties properties, ObjectProvider<SharedClientConverters> shared,
				ObjectProvider<ClientHttpMessageConvertersCustomizer> customizers) {
			return new HttpServiceGroupsRecorder(builds, sharedIfEnabled(properties, shared),
					() -> customizers.stream().findAny().isPresent());
		}

		@Bean
		RestClientConvertersCheck safeDefaultsRestClientConvertersCheck(RestClientBuilds builds,
				RestClientProperties properties) {
			return new RestClientConvertersCheck(builds, properties.isEnabled());
		}

		private static @Nullable Supplier<SharedClientConverters> sharedIfEnabled(RestClientProperties properties,
				ObjectProvider<SharedClientConverters> shared) {
			return properties.isEnabled() ? shared::getObject : null;
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnBooleanProperty(name = "safe-defaults.restclient.enabled", matchIfMissing = true)
		static class SharedConvertersConfiguration {

			@Bean
			static BootsConvertersCustomizerStandIn safeDefaultsBootsConvertersCustomizerStandIn(
					ObjectProvider<SharedClientConverters> shared) {
				return new BootsConvertersCustomizerStandIn(shared);
			}

		}

	}

}
