package dev.safedefaults.stuckrequests;

import dev.safedefaults.ClientReadTimeout;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The stuck-request watch (incident 6, for the clients the starter cannot reach): a
 * servlet filter notes each request's thread and start (its route,
 * {@code StuckRequestsServletAutoConfiguration}, registers it); a request running longer
 * than {@code safe-defaults.stuck-requests.threshold} is examined once from its own
 * thread and what it waits on is the finding {@code stuck-requests.waiting} while it
 * lasts. On by default; off with {@code safe-defaults.stuck-requests.enabled=false}.
 * Servlet stack only: a WebFlux request has no thread of its own to examine.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.SERVLET)
@EnableConfigurationProperties(StuckRequestsProperties.class)
public final class StuckRequestsAutoConfiguration {

	@Bean
	StuckRequestsFeatureStatus safeDefaultsStuckRequestsFeatureStatus(StuckRequestsProperties properties,
			ObjectProvider<StuckRequestsWatch> watches) {
		return new StuckRequestsFeatureStatus(properties, watches);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = StuckRequestsProperties.ENABLED_PROPERTY, matchIfMissing = true)
	@ConditionalOnBean(FindingsStore.class)
	static class WatchConfiguration {

		@Bean
		InFlightRequests safeDefaultsInFlightRequests() {
			return new InFlightRequests();
		}

		@Bean
		StuckRequestsWatch safeDefaultsStuckRequestsWatch(InFlightRequests requests,
				ObjectProvider<HostsCalled> destinations, ObjectProvider<JdbcPools> pools, FindingsStore store,
				StuckRequestsProperties properties, ObjectProvider<ClientReadTimeout> readTimeout) {
			return new StuckRequestsWatch(requests, destinations.getIfAvailable(),
					pools.getIfAvailable(() -> JdbcPools.UNKNOWN), store,
					() -> properties.threshold(readTimeout.getIfAvailable(ClientReadTimeout::new)),
					properties.getInterruptAfter());
		}

	}

}
