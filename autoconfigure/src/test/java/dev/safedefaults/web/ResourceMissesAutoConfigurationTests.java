package dev.safedefaults.web;

import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceUrlEncodingFilter;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration's conditions, its bound, and the finding for a
 * ResourceUrlProvider given handlers of its own. Covers {@code ResourceMissesProperties}
 * (its switch, which keeps the check, and the bound on maximum-size checked at startup)
 * and {@code WebFindings} (the finding's id, subject and message for such a provider).
 */
class ResourceMissesAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, ResourceMissesAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	@Test
	void aServletApplicationRemembersMissesByDefault() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(RememberedMisses.class)
			.hasSingleBean(ResourceMissesInstaller.class)
			.hasSingleBean(ResourceMissesCheck.class));
	}

	@Test
	void theOptOutRemovesTheDefaultButKeepsTheCheck() {
		this.runner.withPropertyValues("safe-defaults.resource-misses.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(RememberedMisses.class)
				.doesNotHaveBean(ResourceMissesInstaller.class)
				.hasSingleBean(ResourceMissesCheck.class));
	}

	@Test
	void withoutCaffeineNothingIsRememberedAndTheStatusSaysWhy() {
		this.runner.withClassLoader(new FilteredClassLoader(Caffeine.class))
			.run((context) -> assertThat(context.getBean(ResourceMissesFeatureStatus.class).status().reason())
				.contains("Caffeine"));
	}

	@Test
	void aNonWebApplicationGetsNothing() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, ResourceMissesAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ResourceMissesCheck.class));
	}

	@Test
	void theMasterSwitchRemovesEverything() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ResourceMissesCheck.class));
	}

	@Test
	void aMaximumSizeOutOfRangeFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("safe-defaults.resource-misses.maximum-size=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("safe-defaults.resource-misses.maximum-size")
				.hasMessageContaining("0"));
	}

	@Test
	void aResourceUrlProviderGivenItsOwnHandlersIsReported() {
		this.runner.withUserConfiguration(OwnProvider.class)
			.withBean(UnchangingLocations.class, () -> new UnchangingLocations() {

				@Override
				boolean isUnchanging(org.springframework.core.io.Resource location) {
					return location instanceof ClassPathResource;
				}

			})
			.run((context) -> {
				List<Finding> findings = context.getBean(ResourceMissesCheck.class).run();
				assertThat(findings).singleElement().satisfies((finding) -> {
					assertThat(finding.id()).isEqualTo("web.resource-misses-uncached");
					assertThat(finding.subject()).isEqualTo("ownResourceUrlProvider /assets/**");
					assertThat(finding.message()).contains("setHandlerMap")
						.contains("each link that /assets/** matches and that is not a resource is looked up")
						.contains("its answers are always its own")
						.doesNotContain("misses are not remembered");
				});
			});
	}

	@Test
	void withoutTheEncodingFilterThereIsNoFinding() {
		this.runner.withPropertyValues("safe-defaults.resource-misses.enabled=false")
			.run((context) -> assertThat(context.getBean(ResourceMissesCheck.class).run()).isEmpty());
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnProvider {

		@Bean
		FilterRegistrationBean<ResourceUrlEncodingFilter> resourceUrlEncodingFilter() {
			return new FilterRegistrationBean<>(new ResourceUrlEncodingFilter());
		}

		@Bean
		ResourceUrlProvider ownResourceUrlProvider() {
			ResourceHttpRequestHandler handler = new ResourceHttpRequestHandler();
			handler.setLocations(List.of(new ClassPathResource("static/")));
			ResourceUrlProvider provider = new ResourceUrlProvider();
			provider.setHandlerMap(Map.of("/assets/**", handler));
			return provider;
		}

	}

}
