package dev.safedefaults.check.actuate;

import java.security.Principal;
import java.util.Objects;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.AvailabilityProbesAutoConfiguration;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.AvailabilityHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.application.DiskSpaceHealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code safe-defaults} health group as Boot's health endpoint sees it: added by a
 * {@code HealthEndpointGroupsPostProcessor}, who sees its details decided by Boot's
 * settings, the starter's property, or the application's own group. Covers
 * {@code SafeDefaultsHealthEndpointGroup} (only the contributor, not a probe, Boot's
 * settings inherited, the application's own group winning) and
 * {@code SafeDefaultsHealthProperties} (its show-details opens the group and not the rest
 * of health; an unknown value goes through Boot's failure report).
 */
class SafeDefaultsHealthGroupTests {

	private static final SecurityContext OPERATOR = new SecurityContext() {

		@Override
		public Principal getPrincipal() {
			return () -> "operator";
		}

		@Override
		public boolean isUserInRole(String role) {
			return "ACTUATOR".equals(role);
		}

	};

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				SafeDefaultsHealthContributorAutoConfiguration.class, SafeDefaultsEndpointAutoConfiguration.class,
				HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
				HealthEndpointAutoConfiguration.class, DiskSpaceHealthContributorAutoConfiguration.class,
				ApplicationAvailabilityAutoConfiguration.class, AvailabilityHealthContributorAutoConfiguration.class,
				AvailabilityProbesAutoConfiguration.class))
		.withPropertyValues("management.endpoint.health.probes.enabled=true");

	@Test
	void theGroupHoldsOnlyTheContributorIsNotAProbeAndInheritsWhoSeesDetails() {
		this.runner.run((context) -> {
			HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
			assertThat(groups.getNames()).contains("safe-defaults", "liveness", "readiness");
			HealthEndpointGroup group = groups.get("safe-defaults");
			assertThat(group).isNotNull();
			assertThat(group.isMember("safeDefaults")).isTrue();
			assertThat(group.isMember("diskSpace")).isFalse();
			assertThat(group.isMember("livenessState")).isFalse();
			assertThat(Objects.requireNonNull(groups.get("liveness")).isMember("safeDefaults")).isFalse();
			assertThat(Objects.requireNonNull(groups.get("readiness")).isMember("safeDefaults")).isFalse();
			// Boot's default, never: not even an operator.
			assertThat(group.showDetails(OPERATOR)).isFalse();
			assertThat(group.showComponents(OPERATOR)).isFalse();
		});
		this.runner
			.withPropertyValues("management.endpoint.health.show-details=when-authorized",
					"management.endpoint.health.roles=ACTUATOR")
			.run((context) -> {
				HealthEndpointGroup group = context.getBean(HealthEndpointGroups.class).get("safe-defaults");
				assertThat(group.showDetails(OPERATOR)).isTrue();
				assertThat(group.showDetails(SecurityContext.NONE)).isFalse();
			});
		this.runner
			.withPropertyValues("management.endpoint.health.show-details=when-authorized",
					"management.endpoint.health.roles=AUDITOR")
			.run((context) -> assertThat(
					context.getBean(HealthEndpointGroups.class).get("safe-defaults").showDetails(OPERATOR))
				.isFalse());
	}

	@Test
	void theStartersPropertyOpensTheGroupAndNotTheRestOfHealth() {
		this.runner.withPropertyValues("safe-defaults.health.show-details=always").run((context) -> {
			HealthEndpointGroups groups = context.getBean(HealthEndpointGroups.class);
			assertThat(groups.get("safe-defaults").showDetails(SecurityContext.NONE)).isTrue();
			assertThat(groups.get("safe-defaults").showComponents(SecurityContext.NONE)).isTrue();
			assertThat(groups.getPrimary().showDetails(SecurityContext.NONE)).isFalse();
		});
		this.runner
			.withPropertyValues("safe-defaults.health.show-details=when-authorized",
					"management.endpoint.health.roles=AUDITOR")
			.run((context) -> assertThat(
					context.getBean(HealthEndpointGroups.class).get("safe-defaults").showDetails(OPERATOR))
				.isFalse());
	}

	@Test
	void theApplicationsOwnGroupSettingsWin() {
		this.runner
			.withPropertyValues("management.endpoint.health.group.safe-defaults.show-details=when-authorized",
					"management.endpoint.health.group.safe-defaults.roles=ACTUATOR",
					"safe-defaults.health.show-details=always")
			.run((context) -> {
				HealthEndpointGroup group = context.getBean(HealthEndpointGroups.class).get("safe-defaults");
				assertThat(group.showDetails(SecurityContext.NONE)).isFalse();
				assertThat(group.showDetails(OPERATOR)).isTrue();
				// Show-components was left unset by the application: the starter's
				// property.
				assertThat(group.showComponents(SecurityContext.NONE)).isTrue();
				// No include or exclude of its own: still only the contributor.
				assertThat(group.isMember("safeDefaults")).isTrue();
				assertThat(group.isMember("diskSpace")).isFalse();
			});
		this.runner.withPropertyValues("management.endpoint.health.group.safe-defaults.include=safeDefaults,diskSpace")
			.run((context) -> assertThat(
					context.getBean(HealthEndpointGroups.class).get("safe-defaults").isMember("diskSpace"))
				.isTrue());
	}

	@Test
	void noGroupWhenTheContributorOrTheStarterIsOff() {
		for (String off : new String[] { "management.health.safe-defaults.enabled=false",
				"management.health.defaults.enabled=false", "safe-defaults.enabled=false" }) {
			this.runner.withPropertyValues(off).run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(SafeDefaultsHealthEndpointGroupsPostProcessor.class);
				assertThat(context.getBean(HealthEndpointGroups.class).getNames()).as(off)
					.doesNotContain("safe-defaults");
			});
		}
	}

	@Test
	void withTheContributorOffTheEndpointKeepsTheGroupsRules() {
		this.runner
			.withPropertyValues("management.health.safe-defaults.enabled=false",
					"safe-defaults.health.show-details=when-authorized", "management.endpoint.health.roles=ACTUATOR")
			.run((context) -> {
				FindingsAccess access = context.getBean(FindingsAccess.class);
				assertThat(access.isShown(SecurityContext.NONE)).isFalse();
				assertThat(access.isShown(OPERATOR)).isTrue();
			});
	}

	@Test
	void noGroupWithoutBootsHealthSupport() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					SafeDefaultsHealthContributorAutoConfiguration.class, SafeDefaultsEndpointAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(SafeDefaultsHealthEndpointGroupsPostProcessor.class));
	}

	@Test
	void anUnknownShowDetailsGoesThroughBootsFailureReport() {
		this.runner.withPropertyValues("safe-defaults.health.show-details=everyone").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis).as("Boot's failure analysis").isNotNull();
			assertThat(analysis.getDescription()).contains("safe-defaults.health.show-details").contains("everyone");
			assertThat(analysis.getAction()).contains("ALWAYS", "NEVER", "WHEN_AUTHORIZED");
		});
	}

	/**
	 * What {@code SpringApplication} reports for a failed start: the first analysis of
	 * the failure analyzers registered in {@code spring.factories}, in their order.
	 */
	private static FailureAnalysis analyze(Throwable failure) {
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, new StandardEnvironment());
		for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, arguments,
					FailureHandler.logging(LogFactory.getLog(SafeDefaultsHealthGroupTests.class)))) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

}
