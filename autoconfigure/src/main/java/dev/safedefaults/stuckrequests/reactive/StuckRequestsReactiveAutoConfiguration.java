package dev.safedefaults.stuckrequests.reactive;

import dev.safedefaults.ClientReadTimeout;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.stuckrequests.JdbcPools;
import dev.safedefaults.stuckrequests.StuckRequestsProperties;
import dev.safedefaults.stuckrequests.WaitClassifier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * The stuck-request watch on a reactive web application (issue 52): Reactor Netty's event
 * loops, each with a heartbeat, a blocked one named within a second of
 * {@code safe-defaults.stuck-requests.event-loop.blocked-threshold} (off with
 * {@code safe-defaults.stuck-requests.event-loop.enabled=false}); WebFlux exchanges noted
 * by a {@code WebFilter}, one running longer than
 * {@code safe-defaults.stuck-requests.threshold} named with its endpoint and the calls of
 * Boot's {@code WebClient}s it waits on. On by default; all off with
 * {@code safe-defaults.stuck-requests.enabled=false}.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.REACTIVE)
@EnableConfigurationProperties({ StuckRequestsProperties.class, EventLoopProperties.class })
public final class StuckRequestsReactiveAutoConfiguration {

	private static final String STUCK_REQUESTS_ENABLED = "safe-defaults.stuck-requests.enabled";

	@Bean
	ReactiveStuckRequestsFeatureStatus safeDefaultsReactiveStuckRequestsFeatureStatus(
			StuckRequestsProperties properties, EventLoopProperties eventLoops,
			ObjectProvider<EventLoopWatch> eventLoopWatches, ObjectProvider<StuckExchangesWatch> exchangeWatches) {
		return new ReactiveStuckRequestsFeatureStatus(properties, eventLoops, eventLoopWatches, exchangeWatches);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = STUCK_REQUESTS_ENABLED, matchIfMissing = true)
	@ConditionalOnBean(FindingsStore.class)
	static class ExchangesConfiguration {

		@Bean
		InFlightExchanges safeDefaultsInFlightExchanges() {
			return new InFlightExchanges();
		}

		@Bean
		InFlightExchangesWebFilter safeDefaultsInFlightExchangesWebFilter(InFlightExchanges exchanges) {
			return new InFlightExchangesWebFilter(exchanges);
		}

		@Bean
		StuckExchangesWatch safeDefaultsStuckExchangesWatch(InFlightExchanges exchanges, FindingsStore store,
				StuckRequestsProperties properties, ObjectProvider<ClientReadTimeout> readTimeout) {
			return new StuckExchangesWatch(exchanges, store,
					() -> properties.threshold(readTimeout.getIfAvailable(ClientReadTimeout::new)));
		}

		/**
		 * The join between an exchange and its outbound calls: a filter on every
		 * {@code WebClient} Boot's builder builds.
		 */
		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(name = "org.springframework.boot.webclient.WebClientCustomizer")
		static class OutboundCallsConfiguration {

			@Bean
			WebClientCustomizer safeDefaultsStuckRequestsOutboundCalls() {
				return (builder) -> builder.filter(new OutboundCallsRecorder());
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "reactor.netty.http.HttpResources")
	@ConditionalOnBooleanProperty(name = STUCK_REQUESTS_ENABLED, matchIfMissing = true)
	@ConditionalOnBooleanProperty(name = EventLoopProperties.ENABLED_PROPERTY, matchIfMissing = true)
	@ConditionalOnBean(FindingsStore.class)
	static class EventLoopConfiguration {

		@Bean
		EventLoopWatch safeDefaultsEventLoopWatch(ObjectProvider<ReactorResourceFactory> resources,
				EventLoopProperties properties, FindingsStore store, ObjectProvider<JdbcPools> pools) {
			return new EventLoopWatch(() -> ReactorNettyLoops.of(resources.getIfAvailable()),
					properties.getBlockedThreshold(), store,
					new WaitClassifier(pools.getIfAvailable(() -> JdbcPools.UNKNOWN)));
		}

	}

}
