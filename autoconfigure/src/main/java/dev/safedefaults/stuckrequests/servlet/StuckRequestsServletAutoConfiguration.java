package dev.safedefaults.stuckrequests.servlet;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.stuckrequests.InFlightRequests;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;
import jakarta.servlet.DispatcherType;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.handler.MappedInterceptor;

/**
 * The stuck-request watch on the servlet API: a filter, first in the chain, notes each
 * request in the watch's {@link InFlightRequests}, an asynchronous one until its response
 * completes; with Spring MVC, an interceptor notes the handler's pattern, and a
 * {@code Callable}'s thread is noted while it works for its request. Applies where the
 * watch runs (its {@code InFlightRequests} bean).
 */
@AutoConfiguration(after = StuckRequestsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnBooleanProperty(name = "safe-defaults.stuck-requests.enabled", matchIfMissing = true)
@ConditionalOnBean(InFlightRequests.class)
public final class StuckRequestsServletAutoConfiguration {

	@Bean
	FilterRegistrationBean<InFlightRequestsFilter> safeDefaultsInFlightRequestsFilter(InFlightRequests requests) {
		return registration(new InFlightRequestsFilter(requests));
	}

	private static FilterRegistrationBean<InFlightRequestsFilter> registration(InFlightRequestsFilter filter) {
		FilterRegistrationBean<InFlightRequestsFilter> registration = new FilterRegistrationBean<>(filter);
		registration.setName("safeDefaultsInFlightRequestsFilter");
		registration.setDispatcherTypes(DispatcherType.REQUEST);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MappedInterceptor.class)
	static class EndpointsConfiguration {

		/**
		 * Spring MVC applies a {@code MappedInterceptor} bean to every handler mapping:
		 * the handler's pattern is noted on the request's thread.
		 */
		@Bean
		MappedInterceptor safeDefaultsStuckRequestsEndpoints(InFlightRequests requests) {
			return new MappedInterceptor(null, new EndpointRecorder(requests));
		}

		/**
		 * The thread of each {@code Callable} Spring MVC runs for an asynchronous
		 * request, noted while it runs.
		 */
		@Bean
		CallableWorkRecorder safeDefaultsStuckRequestsCallables(InFlightRequests requests) {
			return new CallableWorkRecorder(requests);
		}

	}

}
