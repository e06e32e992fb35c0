package dev.safedefaults.logging.actuate;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.logging.DroppedLogEvent;
import dev.safedefaults.logging.LogOutputStall;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingFeature;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code safedefaults.logging.dropped}, as docs/metrics.md lists it: the WARN and ERROR
 * events a stalled output could not take, by level, on either route
 * ({@link LogStallsMetricsAutoConfiguration}, {@link LogStallsMeterBinder}); none without
 * Micrometer.
 */
class LogStallsMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				LoggingDefaultsAutoConfiguration.class, LogStallsMetricsAutoConfiguration.class));

	@Test
	void theDroppedMeterCountsEachWarnAndErrorDroppedByLevel() {
		this.runner.run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean("safeDefaultsLogStallsMeterBinder", MeterBinder.class).bindTo(registry);
			LogOutputStall output = context.getBean(LogStalls.class).output("stdout");
			output.dropped(DroppedLogEvent.now(false, "com.example.Orders", "a warning", null, null));
			output.dropped(DroppedLogEvent.now(false, "com.example.Orders", "another warning", null, null));
			output.dropped(DroppedLogEvent.now(true, "com.example.Orders", "an error", null, null));
			assertThat(registry.get(LoggingFeature.DROPPED_METRIC).tag("level", "warn").functionCounter().count())
				.isEqualTo(2);
			assertThat(registry.get(LoggingFeature.DROPPED_METRIC).tag("level", "error").functionCounter().count())
				.isEqualTo(1);
		});
	}

	@Test
	void withoutMicrometerThereIsNoMeterAndTheBoundStillApplies() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean("safeDefaultsLogStallsMeterBinder")
				.hasSingleBean(LogStalls.class));
	}

}
