package dev.safedefaults.logging.log4j2;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class StarterSwitchedOffAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class,
					Log4j2DefaultsAutoConfiguration.class, StarterSwitchedOffAutoConfiguration.class));

	@Test
	void theMasterSwitchInApplicationPropertiesGivesTheSameJvmLevelHintAsTheLoggingSwitch() {
		this.runner.withPropertyValues("safe-defaults.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(FindingsStore.class).hasSingleBean(JvmLevelSwitchHint.class);
			assertThat(context.getBean(JvmLevelSwitchHint.class).message()).contains(
					"safe-defaults.enabled=false in application properties",
					"-Dsafe-defaults.enabled=false or SAFEDEFAULTS_ENABLED=false");
		});
		assertThat(new JvmLevelSwitchHint("safe-defaults.logging.enabled", true).message())
			.contains("-Dsafe-defaults.logging.enabled=false or SAFEDEFAULTS_LOGGING_ENABLED=false");
	}

	@Test
	void withTheStarterOnThereIsNoHint() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(JvmLevelSwitchHint.class));
	}

	@Test
	void withTheJvmLevelSwitchAlreadyOffThereIsNothingToSay() {
		assertThat(new JvmLevelSwitchHint("safe-defaults.enabled", false).message()).isNull();
	}

	@Test
	void withoutLog4jThereIsNoHint() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.withClassLoader(new FilteredClassLoader("org.apache.logging.log4j.core"))
			.run((context) -> assertThat(context).doesNotHaveBean(JvmLevelSwitchHint.class));
	}

}
