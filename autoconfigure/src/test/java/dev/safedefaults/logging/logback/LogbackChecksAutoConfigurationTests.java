package dev.safedefaults.logging.logback;

import java.time.Duration;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Logback checks and the stack-trace settings, when Logback runs: Boot chooses it and
 * SLF4J is bound to it (as in an application that keeps Logback). That both Logback
 * auto-configurations take the same decision is in
 * {@link LogbackAsyncAutoConfigurationTests}.
 */
@Tag(LogbackFixtures.TAG)
class LogbackChecksAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LogbackChecksAutoConfiguration.class));

	@Test
	void theChecksAreContributedWhenLogbackRuns() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LogbackAsyncAppenderCheck.class)
				.hasSingleBean(LogbackLocationPatternCheck.class)
				.hasSingleBean(LogbackFullStackTracesCheck.class)
				.hasSingleBean(StackTraceThrottleConfigurer.class);
			// The running context: Logback's own, configured by this JVM's defaults.
			assertThat(context.getBean(LogbackAsyncAppenderCheck.class).run()).isEmpty();
		});
	}

	@Test
	void theStackTraceSettingsApplyToLogbacksConverterWhileTheContextIsOpen() {
		this.runner
			.withPropertyValues("safe-defaults.logging.stack-traces.first-n=7",
					"safe-defaults.logging.stack-traces.interval=30s", "safe-defaults.logging.stack-traces.max-kinds=9")
			.run((context) -> assertThat(StackTraceThrottling.settings())
				.isEqualTo(new StackTraceThrottling.Settings(7, Duration.ofSeconds(30), 9)));
		assertThat(StackTraceThrottling.settings().firstN()).isEqualTo(StackTraceThrottling.DEFAULT_FIRST_N);
	}

	@Test
	void nothingWithoutLogback() {
		this.runner.withClassLoader(new FilteredClassLoader("ch.qos.logback.classic"))
			.run((context) -> assertThat(context).doesNotHaveBean(LogbackAsyncAppenderCheck.class)
				.doesNotHaveBean(LogbackLocationPatternCheck.class)
				.doesNotHaveBean(LogbackFullStackTracesCheck.class)
				.doesNotHaveBean(StackTraceThrottleConfigurer.class));
	}

	@Test
	void nothingWhenBootsLoggingSystemIsNotLogbackThoughSlf4jIsBoundToIt() {
		LogbackFixtures.withBootsLoggingSystemNone(
				() -> this.runner.run((context) -> assertThat(context).doesNotHaveBean(LogbackAsyncAppenderCheck.class)
					.doesNotHaveBean(LogbackLocationPatternCheck.class)
					.doesNotHaveBean(LogbackFullStackTracesCheck.class)
					.doesNotHaveBean(StackTraceThrottleConfigurer.class)));
	}

	@Test
	void nothingWhenTheStarterIsSwitchedOff() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LogbackAsyncAppenderCheck.class));
	}

}
