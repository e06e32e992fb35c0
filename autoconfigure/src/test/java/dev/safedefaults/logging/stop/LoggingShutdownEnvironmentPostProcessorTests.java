package dev.safedefaults.logging.stop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.logging.LoggingShutdownHookSwitch;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.commons.logging.impl.NoOpLog;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@OnEveryJdk
class LoggingShutdownEnvironmentPostProcessorTests {

	private final List<String> warnings = new ArrayList<>();

	private final LoggingShutdownEnvironmentPostProcessor postProcessor = new LoggingShutdownEnvironmentPostProcessor(
			(destination) -> new NoOpLog() {

				@Override
				public void warn(Object message) {
					LoggingShutdownEnvironmentPostProcessorTests.this.warnings.add(String.valueOf(message));
				}

			});

	private final SpringApplication application = new SpringApplication();

	private @Nullable BoundedLoggingStop before;

	@BeforeEach
	void rememberTheStop() {
		this.before = StopRegistration.current();
	}

	/**
	 * The stops these tests register are real: at the test JVM's exit the last one drains
	 * its Log4j, and halts the JVM when its bound (a millisecond, for some) has passed.
	 * The stop registered before the test takes its place back, or, where there was none,
	 * one that drains nothing and never halts, so that the test JVM ends with its own
	 * status whichever test runs last in it.
	 */
	@AfterEach
	void giveTheStopBack() {
		if (StopRegistration.current() != this.before) {
			StopRegistration.register((this.before != null) ? this.before
					: new BoundedLoggingStop(NothingToDrain::new, Duration.ofMinutes(1), (status) -> {
					}));
		}
	}

	@Test
	void switchesBootsLog4jStopOffInAPropertySourceThatComesLast() {
		StandardEnvironment environment = environment(Map.of());
		this.postProcessor.postProcessEnvironment(environment, this.application);
		assertThat(environment.getProperty("logging.register-shutdown-hook")).isEqualTo("false");
		assertThat(environment.getPropertySources().stream().reduce((first, second) -> second).orElseThrow().getName())
			.isEqualTo(LoggingShutdownHookSwitch.PROPERTY_SOURCE_NAME);
		assertThat(LoggingShutdownHookSwitch.ownsTheStop(environment)).isTrue();
	}

	@Test
	void anApplicationsOwnRegisterShutdownHookKeepsBootsBehaviour() {
		for (String value : new String[] { "true", "false" }) {
			StandardEnvironment environment = environment(Map.of("logging.register-shutdown-hook", value));
			this.postProcessor.postProcessEnvironment(environment, this.application);
			assertThat(environment.getPropertySources().contains(LoggingShutdownHookSwitch.PROPERTY_SOURCE_NAME))
				.isFalse();
			assertThat(LoggingShutdownHookSwitch.ownsTheStop(environment)).isFalse();
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
		assertThat(timeout(Map.of())).hasSeconds(30);
		assertThat(timeout(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "45s"))).hasSeconds(45);
		assertThat(timeout(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "45s",
				"safe-defaults.logging.shutdown-timeout", "5s")))
			.isEqualTo(Duration.ofSeconds(5));
		assertThat(this.warnings).isEmpty();
	}

	@Test
	void aPhaseTimeoutBootAcceptsIsClampedIntoTheStartersRangeWithAWarningNeverRefused() {
		assertThat(timeout(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "0s")))
			.isEqualTo(Duration.ofMillis(1));
		assertThat(timeout(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "1h")))
			.isEqualTo(Duration.ofMinutes(10));
		assertThat(this.warnings).hasSize(2);
		assertThat(this.warnings.get(0)).contains("spring.lifecycle.timeout-per-shutdown-phase=PT0S")
			.contains("they get PT0.001S")
			.contains("safe-defaults.logging.shutdown-timeout");
		assertThat(this.warnings.get(1)).contains("=PT1H").contains("they get PT10M");
		// And the application starts: the post-processor does not refuse it either.
		this.postProcessor.postProcessEnvironment(
				environment(Map.of("spring.lifecycle.timeout-per-shutdown-phase", "0s")), this.application);
	}

	@Test
	void eachApplicationRunRegistersItsOwnStopInPlaceOfThePreviousOne() throws Exception {
		this.postProcessor.postProcessEnvironment(environment(Map.of("safe-defaults.logging.shutdown-timeout", "7s",
				"spring.lifecycle.timeout-per-shutdown-phase", "3s")), this.application);
		BoundedLoggingStop first = StopRegistration.current();
		assertThat(first).isNotNull();
		assertThat(first.bound()).isEqualTo(Duration.ofSeconds(10));
		// A restart (DevTools, a test's second application) with other settings.
		this.postProcessor.postProcessEnvironment(environment(Map.of("safe-defaults.logging.shutdown-timeout", "2s")),
				this.application);
		BoundedLoggingStop second = StopRegistration.current();
		assertThat(second).isNotNull().isNotSameAs(first);
		assertThat(second.bound()).isEqualTo(Duration.ofSeconds(32));
		assertThat(BootShutdownHandlers.runnables()).contains(second).doesNotContain(first);
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
	}

	private Duration timeout(Map<String, Object> properties) {
		return this.postProcessor.timeout(EarlyPropertyBinder.of(environment(properties)));
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		// As in an application: Boot's view of all sources comes first and contains every
		// property.
		ConfigurationPropertySources.attach(environment);
		return environment;
	}

	private static final class NothingToDrain implements BoundedLoggingStop.Drain {

		@Override
		public void drain(long deadline) {
		}

		@Override
		public void reportBacklog() {
		}

	}

}
