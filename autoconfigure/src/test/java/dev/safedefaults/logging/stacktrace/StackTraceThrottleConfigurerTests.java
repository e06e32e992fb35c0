package dev.safedefaults.logging.stacktrace;

import java.time.Duration;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.log4j2.Log4j2DefaultsAutoConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code safe-defaults.logging.stack-traces.*} through the logging auto-configuration.
 */
class StackTraceThrottleConfigurerTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				LoggingDefaultsAutoConfiguration.class, Log4j2DefaultsAutoConfiguration.class));

	@AfterEach
	void restoreDefaults() {
		StackTraceThrottling.reset();
	}

	@Test
	void thePropertiesDefaultsAreTheConvertersDefaults() {
		LoggingDefaultsProperties.StackTraces properties = new LoggingDefaultsProperties().getStackTraces();
		assertThat(properties.isEnabled()).isTrue();
		assertThat(new StackTraceThrottling.Settings(properties.getFirstN(), properties.getInterval(),
				properties.getMaxKinds()))
			.isEqualTo(StackTraceThrottling.settings());
	}

	@Test
	void settingsComeFromSpringPropertiesAndAreRestoredWhenTheContextCloses() {
		this.runner.withPropertyValues("safe-defaults.logging.stack-traces.first-n=5",
				"safe-defaults.logging.stack-traces.interval=30s", "safe-defaults.logging.stack-traces.max-kinds=64")
			.run((context) -> {
				assertThat(context).hasSingleBean(StackTraceThrottleConfigurer.class);
				assertThat(StackTraceThrottling.settings())
					.isEqualTo(new StackTraceThrottling.Settings(5, Duration.ofSeconds(30), 64));
			});
		assertThat(StackTraceThrottling.settings())
			.isEqualTo(new StackTraceThrottling.Settings(StackTraceThrottling.DEFAULT_FIRST_N,
					StackTraceThrottling.DEFAULT_INTERVAL, StackTraceThrottling.DEFAULT_MAX_KINDS));
	}

	@Test
	void aFirstNBelowOneIsRefused() {
		this.runner.withPropertyValues("safe-defaults.logging.stack-traces.first-n=0")
			.run(refused("safe-defaults.logging.stack-traces.first-n", "from 1 to 10000"));
	}

	@Test
	void aNonPositiveIntervalIsRefused() {
		this.runner.withPropertyValues("safe-defaults.logging.stack-traces.interval=0s")
			.run(refused("safe-defaults.logging.stack-traces.interval", "from 1ms to 1d"));
	}

	@Test
	void aMaxKindsBelowOneIsRefused() {
		this.runner.withPropertyValues("safe-defaults.logging.stack-traces.max-kinds=0")
			.run(refused("safe-defaults.logging.stack-traces.max-kinds", "from 1 to 65536"));
	}

	private static ContextConsumer<AssertableApplicationContext> refused(String property, String allowed) {
		return (context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
					assertThat(ex.getName()).isEqualTo(property);
					assertThat(ex.getReason()).contains(allowed);
				});
		};
	}

	@Test
	void theFeatureStatusSaysStackTracesAreThrottled() {
		this.runner
			.withPropertyValues("logging.exception-conversion-word=%throttledEx",
					"safe-defaults.logging.stack-traces.interval=30s")
			.run((context) -> assertThat(appliedTo(context)).anySatisfy((applied) -> assertThat(applied)
				.startsWith("stack traces: the first 3 of a kind per 30s in full, then one line (")));
	}

	@Test
	void theFeatureStatusSaysStackTracesAreInFullWhenSwitchedOff() {
		this.runner.withPropertyValues("safe-defaults.logging.stack-traces.enabled=false")
			.run((context) -> assertThat(appliedTo(context))
				.contains("stack traces in full: safe-defaults.logging.stack-traces.enabled=false"));
	}

	@Test
	void theFeatureStatusNamesTheApplicationsOwnConversionWord() {
		this.runner.withPropertyValues("logging.exception-conversion-word=%wEx")
			.run((context) -> assertThat(appliedTo(context))
				.contains("stack traces in full: logging.exception-conversion-word is %wEx"));
	}

	private static List<String> appliedTo(AssertableApplicationContext context) {
		return context.getBean(FeatureStatusReporter.class).status().appliedTo();
	}

}
