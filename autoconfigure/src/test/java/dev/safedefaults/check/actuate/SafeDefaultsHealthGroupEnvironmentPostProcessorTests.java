package dev.safedefaults.check.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class SafeDefaultsHealthGroupEnvironmentPostProcessorTests {

	private static final String INCLUDE = "management.endpoint.health.group.safe-defaults.include";

	private static final String SHOW_DETAILS = "management.endpoint.health.group.safe-defaults.show-details";

	private final SafeDefaultsHealthGroupEnvironmentPostProcessor postProcessor = new SafeDefaultsHealthGroupEnvironmentPostProcessor();

	@Test
	void definesTheGroupWithOnlyTheContributorAndDetailsShown() {
		MockEnvironment environment = new MockEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(INCLUDE)).isEqualTo("safeDefaults");
		assertThat(environment.getProperty(SHOW_DETAILS)).isEqualTo("always");
	}

	@Test
	void theApplicationsOwnSettingWins() {
		MockEnvironment environment = new MockEnvironment().withProperty(SHOW_DETAILS, "when-authorized");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(SHOW_DETAILS)).isEqualTo("when-authorized");
	}

	@Test
	void noGroupWhenTheStarterIsOff() {
		MockEnvironment environment = new MockEnvironment().withProperty("safe-defaults.enabled", "false");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(INCLUDE)).isNull();
	}

	@Test
	void noGroupWhenTheContributorIsOff() {
		MockEnvironment environment = new MockEnvironment().withProperty("management.health.safe-defaults.enabled",
				"false");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(INCLUDE)).isNull();
		MockEnvironment defaultsOff = new MockEnvironment().withProperty("management.health.defaults.enabled", "false");
		this.postProcessor.postProcessEnvironment(defaultsOff, new SpringApplication());
		assertThat(defaultsOff.getProperty(INCLUDE)).isNull();
	}

	@Test
	void noGroupWithoutActuatorHealth() {
		MockEnvironment environment = new MockEnvironment();
		SpringApplication application = new SpringApplication();
		application.setResourceLoader(new DefaultResourceLoader(new FilteredClassLoader("org.springframework.boot.health")));
		this.postProcessor.postProcessEnvironment(environment, application);
		assertThat(environment.getProperty(INCLUDE)).isNull();
	}

}
