package dev.safedefaults.check.actuate;

import java.util.List;
import java.util.Map;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.CheckFindings;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SafeDefaultsActuateAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				SafeDefaultsHealthContributorAutoConfiguration.class, SafeDefaultsEndpointAutoConfiguration.class,
				SafeDefaultsMetricsAutoConfiguration.class))
		.withPropertyValues("management.endpoints.jmx.exposure.include=*", "spring.jmx.enabled=true");

	@Test
	void healthIsUpWithTheFindingsInItsDetails() {
		this.runner.run((context) -> {
			assertThat(context).hasBean(SafeDefaultsHealthContributorAutoConfiguration.BEAN_NAME);
			FindingsStore store = context.getBean(FindingsStore.class);
			store.publish("test", List.of(new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING, "pool-1",
					"broke for jdbc:mysql://app:s3cr3t@db/x", "fix it")));
			Health health = context.getBean(SafeDefaultsHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("warnings", 1L).containsEntry("infos", 0L);
			assertThat(health.getDetails().get("findings"))
				.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.list(Finding.class))
				.singleElement()
				.satisfies((finding) -> {
					assertThat(finding.id()).isEqualTo("checks.failed");
					assertThat(finding.severity()).isEqualTo(Severity.WARNING);
					assertThat(finding.subject()).isEqualTo("pool-1");
					assertThat(finding.fix()).isEqualTo("fix it");
					assertThat(finding.toString()).doesNotContain("s3cr3t");
				});
		});
	}

	@Test
	void noHealthIndicatorWithoutActuatorHealth() {
		this.runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(FindingsStore.class);
			assertThat(context).doesNotHaveBean(SafeDefaultsHealthContributorAutoConfiguration.BEAN_NAME);
		});
	}

	@Test
	void theStarterWorksWithoutActuatorOrMicrometer() {
		this.runner
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate",
					"org.springframework.boot.health", "io.micrometer"))
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(FindingsStore.class);
				assertThat(context).doesNotHaveBean(SafeDefaultsHealthIndicator.class)
					.doesNotHaveBean(SafeDefaultsEndpoint.class)
					.doesNotHaveBean(MeterBinder.class);
			});
	}

	@Test
	void healthIndicatorCanBeSwitchedOffTheBootWay() {
		this.runner.withPropertyValues("management.health.safe-defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(SafeDefaultsHealthIndicator.class));
	}

	@Test
	void masterSwitchOffRemovesTheReporters() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(SafeDefaultsHealthIndicator.class)
				.doesNotHaveBean(SafeDefaultsEndpoint.class)
				.doesNotHaveBean(FindingsMeterBinder.class));
	}

	@Test
	void endpointListsFeaturesAndFindings() {
		this.runner.withUserConfiguration(FeatureConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(SafeDefaultsEndpoint.class);
			context.getBean(FindingsStore.class)
				.publish("test", List.of(new Finding("config-cache.mutable-type", Severity.INFO, "bean-x", "m", "f")));
			SafeDefaultsEndpoint.SafeDefaultsReport report = context.getBean(SafeDefaultsEndpoint.class).report();
			assertThat(report.features()).extracting(FeatureStatus::feature).containsExactly("demo");
			// A raw URL in free text: where it ends is unknown, so only its scheme stays.
			assertThat(report.features().get(0).appliedTo()).containsExactly("jdbc:mysql:******");
			assertThat(report.findings()).singleElement().satisfies((f) -> assertThat(f.subject()).isEqualTo("bean-x"));
			assertThat(report.infos()).isOne();
			assertThat(report.checks().enabled()).isTrue();
			assertThat(report.checks().startupMillis()).isNotNull();
		});
	}

	/**
	 * A feature built against a newer library than the one at run time (issue 42: Boot
	 * 4.0.0 lacks a method of 4.0.9) must not break the start nor the endpoint: its
	 * status says it failed, the others are there.
	 */
	@Test
	void aFeatureWhoseStatusFailsWithALinkageErrorBreaksNeitherTheStartNorTheEndpoint() {
		this.runner.withUserConfiguration(FeatureConfiguration.class, FailingFeatureConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SafeDefaultsEndpoint.SafeDefaultsReport report = context.getBean(SafeDefaultsEndpoint.class).report();
				assertThat(report.features()).extracting(FeatureStatus::feature)
					.contains("demo", LinkageFailingFeature.class.getSimpleName());
				assertThat(report.features()).filteredOn((status) -> !status.feature().equals("demo"))
					.singleElement()
					.satisfies((status) -> {
						assertThat(status.enabled()).isFalse();
						assertThat(status.reason()).isEqualTo("status failed: NoSuchMethodError");
					});
			});
	}

	@Test
	void theEndpointsWebExtensionWithholdsTheReportFromAnAnonymousRequestByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(SafeDefaultsEndpointWebExtension.class);
			assertThat(context.getBean(SafeDefaultsEndpointWebExtension.class).report(SecurityContext.NONE))
				.isInstanceOf(SafeDefaultsEndpointWebExtension.WithheldReport.class);
		});
	}

	@Test
	void withoutBootsHealthSupportTheStartersPropertyAloneDecides() {
		ApplicationContextRunner withoutHealth = this.runner
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"));
		withoutHealth.run((context) -> assertThat(
				context.getBean(SafeDefaultsEndpointWebExtension.class).report(SecurityContext.NONE))
			.isInstanceOf(SafeDefaultsEndpointWebExtension.WithheldReport.class));
		withoutHealth.withPropertyValues("safe-defaults.health.show-details=always")
			.run((context) -> assertThat(
					context.getBean(SafeDefaultsEndpointWebExtension.class).report(SecurityContext.NONE))
				.isInstanceOf(SafeDefaultsEndpoint.SafeDefaultsReport.class));
	}

	@Test
	void endpointCanBeSwitchedOffTheBootWay() {
		this.runner.withPropertyValues("management.endpoint.safedefaults.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(SafeDefaultsEndpoint.class));
	}

	@Test
	void findingsGaugeCountsBySeverity() {
		this.runner.run((context) -> {
			MeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(FindingsMeterBinder.class).bindTo(registry);
			FindingsStore store = context.getBean(FindingsStore.class);
			store.publish("a",
					List.of(new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING, "x", "m", "f"),
							new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING, "y", "m", "f"),
							new Finding("config-cache.mutable-type", Severity.INFO, "z", "m", "f")));
			assertThat(registry.get("safedefaults.findings").tag("severity", "warning").gauge().value()).isEqualTo(2);
			assertThat(registry.get("safedefaults.findings").tag("severity", "info").gauge().value()).isEqualTo(1);
			store.clear("a");
			assertThat(registry.get("safedefaults.findings").tag("severity", "warning").gauge().value()).isZero();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class FeatureConfiguration {

		@Bean
		FeatureStatusReporter demoFeature() {
			return () -> FeatureStatus.applied("demo", List.of("jdbc:mysql://app:s3cr3t@db/x"));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FailingFeatureConfiguration {

		@Bean
		FeatureStatusReporter failingFeature() {
			return new LinkageFailingFeature();
		}

	}

	static final class LinkageFailingFeature implements FeatureStatusReporter {

		@Override
		public FeatureStatus status() {
			throw new NoSuchMethodError("HttpServiceClientProperties.get(java.lang.String)");
		}

	}

}
