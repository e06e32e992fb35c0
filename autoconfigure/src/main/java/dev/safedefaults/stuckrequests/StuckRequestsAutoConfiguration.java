package dev.safedefaults.stuckrequests;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The stuck-request watch (incident 6, for the clients the starter cannot reach): a
 * servlet filter notes each request's thread and start; a request running longer than
 * {@code safe-defaults.stuck-requests.threshold} is examined once from its own thread and
 * what it waits on is the finding {@code stuck-requests.waiting} while it lasts. On by
 * default; off with {@code safe-defaults.stuck-requests.enabled=false}. Servlet stack
 * only: a WebFlux request has no thread of its own to examine.
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

		/**
		 * A post-processor so that the JVM's proxy selector is wrapped before any client
		 * bean is built (the JDK HttpClient keeps the one it was built with).
		 */
		@Bean
		static DestinationRecorder safeDefaultsStuckRequestsDestinations() {
			return new DestinationRecorder(new InFlightRequests());
		}

		@Bean
		InFlightRequests safeDefaultsInFlightRequests(DestinationRecorder destinations) {
			return destinations.requests();
		}

		@Bean
		FilterRegistrationBean<InFlightRequestsFilter> safeDefaultsInFlightRequestsFilter(InFlightRequests requests) {
			return registration(new InFlightRequestsFilter(requests));
		}

		@Bean
		StuckRequestsWatch safeDefaultsStuckRequestsWatch(InFlightRequests requests, DestinationRecorder destinations,
				ObjectProvider<JdbcPools> pools, FindingsStore store, StuckRequestsProperties properties) {
			return new StuckRequestsWatch(requests, destinations, pools.getIfAvailable(() -> JdbcPools.UNKNOWN), store,
					properties.getThreshold());
		}

		private static FilterRegistrationBean<InFlightRequestsFilter> registration(InFlightRequestsFilter filter) {
			FilterRegistrationBean<InFlightRequestsFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setName("safeDefaultsInFlightRequestsFilter");
			registration.setDispatcherTypes(DispatcherType.REQUEST);
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HikariDataSource.class)
	@ConditionalOnBooleanProperty(name = StuckRequestsProperties.ENABLED_PROPERTY, matchIfMissing = true)
	static class HikariPoolsConfiguration {

		@Bean
		HikariPools safeDefaultsStuckRequestsHikariPools(ObjectProvider<DataSource> dataSources) {
			return new HikariPools(dataSources);
		}

	}

}
