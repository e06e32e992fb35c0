package dev.safedefaults;

import java.time.Duration;

import dev.safedefaults.configcache.ParsedConfigCacheAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.stacktraces.StackTraceThrottling;
import dev.safedefaults.runtime.RuntimeStormAutoConfiguration;
import dev.safedefaults.web.ResourceMissesAutoConfiguration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Every duration, size and count property has an upper bound (and a lower one), checked
 * at startup by the properties themselves, with the property, the value and the range in
 * the message: no value can make the starter misbehave silently or overflow later.
 */
class PropertyUpperBoundsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				LoggingDefaultsAutoConfiguration.class, ParsedConfigCacheAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, RuntimeStormAutoConfiguration.class))
		.withPropertyValues("safe-defaults.runtime.enabled=false");

	@ParameterizedTest(name = "{0}={1} is refused")
	@CsvSource({
			// Durations: timeouts at most 10 minutes, intervals at most a day.
			"safe-defaults.checks.deferred-timeout, 106751991168d, 1ms to 10m",
			"safe-defaults.checks.deferred-timeout, 11m, 1ms to 10m",
			"safe-defaults.checks.deferred-timeout, 0s, 1ms to 10m",
			"safe-defaults.logging.stack-traces.interval, 106751991168d, 1ms to 1d",
			"safe-defaults.logging.stack-traces.interval, 25h, 1ms to 1d",
			"safe-defaults.logging.stack-traces.interval, 0s, 1ms to 1d",
			"safe-defaults.config-cache.expire-after-access, 2d, 1ms to 1d",
			"safe-defaults.config-cache.expire-after-access, 0s, 1ms to 1d",
			"safe-defaults.runtime.sampling-period, 2m, 10ms to 1m",
			"safe-defaults.runtime.sampling-period, 5ms, 10ms to 1m",
			"safe-defaults.runtime.sustained-for, 2h, 1ms to 1h",
			"safe-defaults.runtime.exception-storm.window-interval, 106751991168d, 1ms to 1d",
			"safe-defaults.runtime.stderr-stack-traces.log-interval, 25h, 1ms to 1d",
			"safe-defaults.runtime.stderr-stack-traces.log-interval, 0s, 1ms to 1d",
			// Sizes and counts.
			"safe-defaults.config-cache.maximum-weight, 2GB, 1B to 1GB",
			"safe-defaults.config-cache.maximum-weight, 1025MB, 1B to 1GB",
			"safe-defaults.config-cache.maximum-weight, 0B, 1B to 1GB",
			"safe-defaults.logging.ring-buffer-size, 2097152, 128 to 1048576",
			"safe-defaults.logging.ring-buffer-size, 64, 128 to 1048576",
			"safe-defaults.logging.stack-traces.first-n, 10001, 1 to 10000",
			"safe-defaults.logging.stack-traces.first-n, 0, 1 to 10000",
			"safe-defaults.logging.stack-traces.max-kinds, 65537, 1 to 65536",
			"safe-defaults.jdbc.prep-stmt-cache-size, 16383, 1 to 16382",
			"safe-defaults.jdbc.prep-stmt-cache-sql-limit, 1048577, 2048 to 1048576",
			"safe-defaults.jdbc.expected-instances, 10001, 1 to 10000",
			"safe-defaults.runtime.exception-storm.per-second, 1e10, 0 and at most 1000000000",
			"safe-defaults.runtime.exception-storm.per-second, 0, 0 and at most 1000000000",
			"safe-defaults.runtime.exception-storm.per-request, NaN, 0 and at most 1000000000",
			"safe-defaults.runtime.stderr-stack-traces.per-second, 1e10, 0 and at most 1000000000" })
	void aValueOutOfRangeFailsStartupNamingThePropertyTheValueAndTheRange(String property, String value, String range) {
		this.runner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining(property)
				.hasMessageContaining(range);
			InvalidConfigurationPropertyValueException ex = (InvalidConfigurationPropertyValueException) rootCause(
					context.getStartupFailure());
			assertThat(ex.getName()).isEqualTo(property);
			assertThat(ex.getValue()).isNotNull();
		});
	}

	@ParameterizedTest(name = "{0}={1} is accepted")
	@CsvSource({ "safe-defaults.checks.deferred-timeout, 10m", "safe-defaults.logging.stack-traces.interval, 1d",
			"safe-defaults.config-cache.expire-after-access, 1d", "safe-defaults.config-cache.maximum-weight, 1GB",
			"safe-defaults.runtime.exception-storm.window-interval, 1d", "safe-defaults.runtime.sustained-for, 1h",
			"safe-defaults.runtime.stderr-stack-traces.log-interval, 1d" })
	void theUpperBoundItselfIsAccepted(String property, String value) {
		this.runner.withPropertyValues(property + "=" + value).run((context) -> assertThat(context).hasNotFailed());
	}

	@ParameterizedTest(name = "{0}={1} is refused in a servlet application")
	@CsvSource({ "safe-defaults.web.resource-misses.maximum-size, 1000001, 1 to 1000000",
			"safe-defaults.web.resource-misses.maximum-size, 0, 1 to 1000000" })
	void aWebValueOutOfRangeFailsStartupNamingThePropertyTheValueAndTheRange(String property, String value,
			String range) {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, ResourceMissesAutoConfiguration.class))
			.withPropertyValues(property + "=" + value)
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining(property)
				.hasMessageContaining(range));
	}

	@org.junit.jupiter.api.Test
	void theWebUpperBoundItselfIsAccepted() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, ResourceMissesAutoConfiguration.class))
			.withPropertyValues("safe-defaults.web.resource-misses.maximum-size=1000000")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@org.junit.jupiter.api.Test
	void theThrottleRefusesAnIntervalItsArithmeticCouldOverflowOn() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new StackTraceThrottling.Settings(3, Duration.ofDays(106751991168L), 1024))
			.withMessageContaining("at most 1d");
	}

	private static Throwable rootCause(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
