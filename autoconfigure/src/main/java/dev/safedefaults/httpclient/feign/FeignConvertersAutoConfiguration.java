package dev.safedefaults.httpclient.feign;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.SharedClientConverters;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.cloud.openfeign.FeignClientProperties;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Gives every Feign client one converters object, built once at startup, without the
 * defaults, and checks for codecs that build converters on every call (incident 1 of the
 * project's incidents: a custom codec rebuilt every default converter per call;
 * throughput fell 25×).
 * <p>
 * OpenFeign's own encoder and decoder stay; only the converters they ask for on every
 * call change. The status reporter is there whether OpenFeign is present or not;
 * {@code safe-defaults.feign.enabled=false} removes the default, not the checks.
 */
@AutoConfiguration(after = { SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class })
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(FeignProperties.class)
public final class FeignConvertersAutoConfiguration {

	@Bean
	FeatureStatusReporter safeDefaultsFeignFeatureStatus(FeignProperties properties,
			ObjectProvider<FeignClientsStatus> clients) {
		return new FeignFeatureStatus(properties, clients);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.springframework.cloud.openfeign.FeignClientFactory", "feign.Feign",
			"org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer" })
	static class OpenFeignConfiguration {

		@Bean
		FeignClientsStatus safeDefaultsFeignClientsStatus(ListableBeanFactory beanFactory,
				ObjectProvider<FeignClientFactory> clientFactory, ObjectProvider<SharedFeignConverters> shared) {
			return new OpenFeignClientsStatus(beanFactory, clientFactory, shared);
		}

		@Bean
		FeignClientContexts safeDefaultsFeignClientContexts(ListableBeanFactory beanFactory,
				ObjectProvider<FeignClientFactory> clientFactory) {
			return new FeignClientContexts(beanFactory, clientFactory);
		}

		@Bean
		PerCallConvertersCheck safeDefaultsFeignPerCallConvertersCheck(FeignClientContexts contexts) {
			return new PerCallConvertersCheck(contexts);
		}

		@Bean
		DefaultConvertersCheck safeDefaultsFeignDefaultConvertersCheck(FeignClientContexts contexts) {
			return new DefaultConvertersCheck(contexts);
		}

		@Bean
		FeignTimeoutsCheck safeDefaultsFeignTimeoutsCheck(ObjectProvider<FeignClientProperties> properties) {
			return new FeignTimeoutsCheck(properties);
		}

		@Bean
		FeignConverterBuilds safeDefaultsFeignConverterBuilds(ObjectProvider<FindingsStore> store) {
			return new FeignConverterBuilds(store);
		}

		/**
		 * Contributes {@link ClientObserversConfiguration} to every client's context,
		 * whether the starter's converters are on or not.
		 */
		@Bean
		FeignClientSpecification safeDefaultsFeignObserversSpecification() {
			return new FeignClientSpecification("default." + ClientObserversConfiguration.class.getName(), "default",
					new Class<?>[] { ClientObserversConfiguration.class });
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnBooleanProperty(name = "safe-defaults.feign.enabled", matchIfMissing = true)
		@ConditionalOnMissingBean(FeignHttpMessageConverters.class)
		static class SharedConvertersConfiguration {

			@Bean
			SharedFeignConverters safeDefaultsSharedFeignConverters(SharedClientConverters clientConverters,
					ListableBeanFactory beanFactory,
					ObjectProvider<ClientHttpMessageConvertersCustomizer> clientCustomizers,
					ObjectProvider<HttpMessageConverterCustomizer> feignCustomizers) {
				return new SharedFeignConverters(clientConverters, SharedClientConverters.jsonConverter(beanFactory),
						clientCustomizers.orderedStream().toList(), feignCustomizers.orderedStream().toList());
			}

			/**
			 * Contributes {@link ClientConvertersConfiguration} to every client's
			 * context: OpenFeign registers the configurations of specifications named
			 * {@code default.*} in each of them.
			 */
			@Bean
			FeignClientSpecification safeDefaultsFeignClientSpecification() {
				return new FeignClientSpecification("default." + ClientConvertersConfiguration.class.getName(),
						"default", new Class<?>[] { ClientConvertersConfiguration.class });
			}

		}

	}

}
