package dev.safedefaults;

import java.time.Duration;

import dev.safedefaults.configcache.ParsedConfigCacheAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.Log4j2DefaultsAutoConfiguration;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import dev.safedefaults.runtime.storm.RuntimeStormAutoConfiguration;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;
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
 * the message: no value can make the starter misbehave silently or overflow later. Covers
 * {@code PropertyBounds}, which every properties class calls: its message names the
 * property, the value and the range, and the upper bound itself is accepted.
 */
class PropertyUpperBoundsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class,
						Log4j2DefaultsAutoConfiguration.class, ParsedConfigCacheAutoConfiguration.class,
						JdbcDefaultsAutoConfiguration.class, RuntimeStormAutoConfiguration.class))
		.withPropertyValues("safe-defaults.runtime.enabled=false");

	/**
	 * The last column is the value as the message shows it: as written, except that a
	 * number read as a {@code double} is shown as Java prints it.
	 */
	@ParameterizedTest(name = "{0}={1} is refused")
	@CsvSource({
			// Durations: timeouts at most 10 minutes, intervals at most a day.
			"safe-defaults.checks.deferred-timeout, 106751991168d, from 1ms to 10m, 106751991168d",
			"safe-defaults.checks.deferred-timeout, 11m, from 1ms to 10m, 11m",
			"safe-defaults.checks.deferred-timeout, 0s, from 1ms to 10m, 0s",
			"safe-defaults.logging.stack-traces.interval, 106751991168d, from 1ms to 1d, 106751991168d",
			"safe-defaults.logging.stack-traces.interval, 25h, from 1ms to 1d, 25h",
			"safe-defaults.logging.stack-traces.interval, 0s, from 1ms to 1d, 0s",
			"safe-defaults.config-cache.expire-after-access, 2d, from 1ms to 1d, 2d",
			"safe-defaults.config-cache.expire-after-access, 0s, from 1ms to 1d, 0s",
			"safe-defaults.runtime.sampling-period, 2m, from 10ms to 1m, 2m",
			"safe-defaults.runtime.sampling-period, 5ms, from 10ms to 1m, 5ms",
			"safe-defaults.runtime.sustained-for, 2h, from 1ms to 1h, 2h",
			"safe-defaults.runtime.exception-storm.window-interval, 106751991168d, from 1ms to 1d, 106751991168d",
			"safe-defaults.runtime.stderr-stack-traces.log-interval, 25h, from 1ms to 1d, 25h",
			"safe-defaults.runtime.stderr-stack-traces.log-interval, 0s, from 1ms to 1d, 0s",
			// Sizes and counts.
			"safe-defaults.config-cache.maximum-weight, 2GB, from 1B to 1GB, 2GB",
			"safe-defaults.config-cache.maximum-weight, 1025MB, from 1B to 1GB, 1025MB",
			"safe-defaults.config-cache.maximum-weight, 0B, from 1B to 1GB, 0B",
			"safe-defaults.logging.ring-buffer-size, 2097152, from 128 to 1048576, 2097152",
			"safe-defaults.logging.ring-buffer-size, 64, from 128 to 1048576, 64",
			"safe-defaults.logging.stack-traces.first-n, 10001, from 1 to 10000, 10001",
			"safe-defaults.logging.stack-traces.first-n, 0, from 1 to 10000, 0",
			"safe-defaults.logging.stack-traces.max-kinds, 65537, from 1 to 65536, 65537",
			"safe-defaults.jdbc.prep-stmt-cache-size, 16383, from 1 to 16382, 16383",
			"safe-defaults.jdbc.prep-stmt-cache-sql-limit, 1048577, from 2048 to 1048576, 1048577",
			"safe-defaults.jdbc.expected-instances, 10001, from 1 to 10000, 10001",
			"safe-defaults.runtime.exception-storm.per-second, 1e10, above 0 and at most 1000000000, 1.0E10",
			"safe-defaults.runtime.exception-storm.per-second, 0, above 0 and at most 1000000000, 0.0",
			"safe-defaults.runtime.exception-storm.per-request, NaN, above 0 and at most 1000000000, NaN",
			"safe-defaults.runtime.stderr-stack-traces.per-second, 1e10, above 0 and at most 1000000000, 1.0E10" })
	void aValueOutOfRangeFailsStartupNamingThePropertyTheValueAndTheRange(String property, String value, String range,
			String shown) {
		this.runner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("Property " + property + " with value '" + shown + "' is invalid")
				.hasMessageContaining("is invalid: Must be " + range + " (");
			InvalidConfigurationPropertyValueException ex = (InvalidConfigurationPropertyValueException) rootCause(
					context.getStartupFailure());
			assertThat(ex.getName()).isEqualTo(property);
			assertThat(ex.getValue()).hasToString(shown);
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
	@CsvSource({ "safe-defaults.resource-misses.maximum-size, 1000001, 1 to 1000000",
			"safe-defaults.resource-misses.maximum-size, 0, 1 to 1000000",
			"safe-defaults.stuck-requests.threshold, 11m, from 1s to 10m",
			"safe-defaults.stuck-requests.threshold, 999ms, from 1s to 10m",
			"safe-defaults.stuck-requests.interrupt-after, 61m, from 1s to 1h",
			"safe-defaults.stuck-requests.interrupt-after, 0s, from 1s to 1h" })
	void aWebValueOutOfRangeFailsStartupNamingThePropertyTheValueAndTheRange(String property, String value,
			String range) {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					ResourceMissesAutoConfiguration.class, StuckRequestsAutoConfiguration.class))
			.withPropertyValues(property + "=" + value)
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining(property)
				.hasMessageContaining(range));
	}

	@org.junit.jupiter.api.Test
	void theWebUpperBoundItselfIsAccepted() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					ResourceMissesAutoConfiguration.class, StuckRequestsAutoConfiguration.class))
			.withPropertyValues("safe-defaults.resource-misses.maximum-size=1000000",
					"safe-defaults.stuck-requests.threshold=10m", "safe-defaults.stuck-requests.interrupt-after=1h")
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
