package dev.safedefaults.check.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class SafeDefaultsHealthGroupEnvironmentPostProcessorTests {

	private static final String INCLUDE = "management.endpoint.health.group.safe-defaults.include";

	private static final String SHOW_DETAILS = "management.endpoint.health.group.safe-defaults.show-details";

	private static final String SHOW_COMPONENTS = "management.endpoint.health.group.safe-defaults.show-components";

	private final SafeDefaultsHealthGroupEnvironmentPostProcessor postProcessor = new SafeDefaultsHealthGroupEnvironmentPostProcessor();

	@Test
	void definesTheGroupWithOnlyTheContributorAndLeavesWhoSeesDetailsToTheApplication() {
		MockEnvironment environment = new MockEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(INCLUDE)).isEqualTo("safeDefaults");
		// Unset: Boot's group inherits management.endpoint.health.show-details (default never).
		assertThat(environment.getProperty(SHOW_DETAILS)).isNull();
		assertThat(environment.getProperty(SHOW_COMPONENTS)).isNull();
	}

	@Test
	void theStartersPropertyOpensTheGroup() {
		MockEnvironment environment = new MockEnvironment().withProperty("safe-defaults.health.show-details",
				"ALWAYS");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(SHOW_DETAILS)).isEqualTo("always");
		assertThat(environment.getProperty(SHOW_COMPONENTS)).isEqualTo("always");
	}

	@Test
	void theApplicationsOwnGroupSettingWinsOverTheStartersProperty() {
		MockEnvironment environment = new MockEnvironment().withProperty(SHOW_DETAILS, "when-authorized")
			.withProperty("safe-defaults.health.show-details", "always");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(SHOW_DETAILS)).isEqualTo("when-authorized");
	}

	@Test
	void anUnknownValueFailsNamingThePropertyTheValueAndWhatIsAllowed() {
		MockEnvironment environment = new MockEnvironment().withProperty("safe-defaults.health.show-details",
				"everyone");
		assertThatIllegalStateException()
			.isThrownBy(() -> this.postProcessor.postProcessEnvironment(environment, new SpringApplication()))
			.withMessageContaining("safe-defaults.health.show-details")
			.withMessageContaining("'everyone'")
			.withMessageContaining("never, when-authorized and always");
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
