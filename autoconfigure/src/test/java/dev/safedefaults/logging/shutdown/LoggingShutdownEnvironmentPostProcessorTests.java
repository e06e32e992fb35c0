package dev.safedefaults.logging.shutdown;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class LoggingShutdownEnvironmentPostProcessorTests {

	private final LoggingShutdownEnvironmentPostProcessor postProcessor = new LoggingShutdownEnvironmentPostProcessor();

	private final SpringApplication application = new SpringApplication();

	@Test
	void switchesBootsLog4jStopOffInAPropertySourceThatComesLast() {
		StandardEnvironment environment = environment(Map.of());
		this.postProcessor.postProcessEnvironment(environment, this.application);
		assertThat(environment.getProperty("logging.register-shutdown-hook")).isEqualTo("false");
		assertThat(environment.getPropertySources().stream().reduce((first, second) -> second).orElseThrow().getName())
			.isEqualTo(LoggingShutdownEnvironmentPostProcessor.PROPERTY_SOURCE_NAME);
		assertThat(LoggingShutdownEnvironmentPostProcessor.ownsTheStop(environment)).isTrue();
	}

	@Test
	void anApplicationsOwnRegisterShutdownHookKeepsBootsBehaviour() {
		for (String value : new String[] { "true", "false" }) {
			StandardEnvironment environment = environment(Map.of("logging.register-shutdown-hook", value));
			this.postProcessor.postProcessEnvironment(environment, this.application);
			assertThat(environment.getPropertySources()
				.contains(LoggingShutdownEnvironmentPostProcessor.PROPERTY_SOURCE_NAME)).isFalse();
			assertThat(LoggingShutdownEnvironmentPostProcessor.ownsTheStop(environment)).isFalse();
		}
	}

	@Test
	void nothingChangesWhenTheLoggingDefaultsAreOff() {
		for (String switchOff : new String[] { "safe-defaults.enabled", "safe-defaults.logging.enabled" }) {
			StandardEnvironment environment = environment(Map.of(switchOff, "false"));
			this.postProcessor.postProcessEnvironment(environment, this.application);
			assertThat(environment.containsProperty("logging.register-shutdown-hook")).isFalse();
		}
	}

	@Test
	void theTimeoutIsTheStartersPropertyElseBootsPhaseTimeoutElseThirtySeconds() {
		assertThat(LoggingShutdownEnvironmentPostProcessor.timeout(environment(Map.of()))).hasSeconds(30);
		assertThat(LoggingShutdownEnvironmentPostProcessor
			.timeout(environment(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "45s")))).hasSeconds(45);
		assertThat(LoggingShutdownEnvironmentPostProcessor
			.timeout(environment(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "45s",
					"safe-defaults.logging.shutdown-timeout", "5s")))).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void aTimeoutOutOfRangeFailsNamingPropertyValueAndRange() {
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> this.postProcessor.postProcessEnvironment(
					environment(Map.of("safe-defaults.logging.shutdown-timeout", "106751991168d")), this.application))
			.satisfies((ex) -> {
				assertThat(ex.getName()).isEqualTo("safe-defaults.logging.shutdown-timeout");
				assertThat(ex.getReason()).contains("to 10m");
			});
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> LoggingShutdownEnvironmentPostProcessor
				.timeout(environment(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "0s"))))
			.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("spring.lifecycle.timeout-per-shutdown-phase"));
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		// As in an application: Boot's view of all sources comes first and contains every property.
		ConfigurationPropertySources.attach(environment);
		return environment;
	}

}
