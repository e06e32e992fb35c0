package dev.safedefaults.stuckrequests.servlet;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;
import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.handler.MappedInterceptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watch's servlet route: {@code InFlightRequestsFilter}, first in the chain and on
 * the {@code REQUEST} dispatch only, and with Spring MVC {@code EndpointRecorder}, are
 * registered where the watch runs, and neither when it is off. What they record, on a
 * request through them: {@code StuckRequestsAutoConfigurationTests} and
 * {@code StuckRequestsAsyncTests}.
 */
class StuckRequestsServletAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				StuckRequestsAutoConfiguration.class, StuckRequestsServletAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	@Test
	void theFilterIsFirstOnTheRequestDispatchOnlyAndTheInterceptorNotesEndpoints() {
		this.runner.run((context) -> {
			FilterRegistrationBean<?> registration = context.getBean(FilterRegistrationBean.class);
			assertThat(registration.getFilter()).isInstanceOf(InFlightRequestsFilter.class);
			assertThat(registration.getOrder()).isEqualTo(Ordered.HIGHEST_PRECEDENCE);
			assertThat(registration.determineDispatcherTypes()).containsExactly(DispatcherType.REQUEST);
			assertThat(context.getBean(MappedInterceptor.class).getInterceptor()).isInstanceOf(EndpointRecorder.class);
		});
	}

	@Test
	void withoutSpringMvcTheFilterStaysAlone() {
		this.runner.withClassLoader(new FilteredClassLoader(MappedInterceptor.class))
			.run((context) -> assertThat(context).hasSingleBean(FilterRegistrationBean.class)
				.doesNotHaveBean(MappedInterceptor.class));
	}

	@Test
	void switchedOffThereIsNoFilterAndNoInterceptor() {
		this.runner.withPropertyValues("safe-defaults.stuck-requests.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(FilterRegistrationBean.class)
				.doesNotHaveBean(MappedInterceptor.class));
	}

}
