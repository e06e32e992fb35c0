package dev.safedefaults.httpclient.webclient;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webclient.autoconfigure.WebClientCodecCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Watches Boot's {@code WebClient.Builder} for clients built while the application serves
 * traffic (issue 52; spring-framework #27325: Boot's builder makes its codecs again on
 * each build), as {@code RestClient}'s builder is watched. Boot applies every
 * {@code WebClientCustomizer} bean to the builders it hands out: the starter's counting
 * customizer is the one way in. The status reporter is there whether the library is
 * present or not; {@code safe-defaults.webclient.enabled=false} adds nothing to Boot's
 * builder.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class,
		afterName = "org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration")
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(WebClientProperties.class)
public final class WebClientBuildsAutoConfiguration {

	@Bean
	FeatureStatusReporter safeDefaultsWebClientFeatureStatus(WebClientProperties properties,
			ObjectProvider<WebClientBuilds> builds) {
		return new WebClientFeatureStatus(properties, builds);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.springframework.web.reactive.function.client.WebClient",
			"org.springframework.boot.webclient.WebClientCustomizer",
			"org.springframework.boot.webclient.autoconfigure.WebClientCodecCustomizer" })
	@ConditionalOnBooleanProperty(name = "safe-defaults.webclient.enabled", matchIfMissing = true)
	static class WebClientConfiguration {

		@Bean
		WebClientBuilds safeDefaultsWebClientBuilds(ObjectProvider<FindingsStore> store) {
			return new WebClientBuilds(store);
		}

		/**
		 * First of the customizers: it only counts. Whether Boot's builder makes codecs
		 * on each build is read once, at the first builder (Boot's codecs customizer is
		 * there only when some {@code CodecCustomizer} bean is).
		 */
		@Bean
		@Order(Ordered.HIGHEST_PRECEDENCE)
		CountingWebClientCustomizer safeDefaultsCountingWebClientCustomizer(WebClientBuilds builds,
				ObjectProvider<WebClientCodecCustomizer> codecs) {
			return new CountingWebClientCustomizer(builds, () -> codecs.getIfAvailable() != null);
		}

	}

}
