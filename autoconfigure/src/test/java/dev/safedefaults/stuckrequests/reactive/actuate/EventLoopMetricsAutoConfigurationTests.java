package dev.safedefaults.stuckrequests.reactive.actuate;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.stuckrequests.reactive.StuckRequestsReactiveAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The event-loop watch's gauge,
 * {@value EventLoopMetricsAutoConfiguration#EVENT_LOOPS_BLOCKED}: zero on healthy loops,
 * read from the watch ({@code EventLoopMeters}); no gauge with the event-loop watch off.
 * The gauge counting a blocked loop is {@code EventLoopWatchTests}' (the same method).
 */
@Tag("reactive")
class EventLoopMetricsAutoConfigurationTests {

	private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, StuckRequestsReactiveAutoConfiguration.class,
						EventLoopMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
						CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	@Test
	void theGaugeReadsNoBlockedLoopOnHealthyLoops() {
		this.runner.run((context) -> assertThat(context.getBean(MeterRegistry.class)
			.get(EventLoopMetricsAutoConfiguration.EVENT_LOOPS_BLOCKED)
			.gauge()
			.value()).isZero());
	}

	@Test
	void noGaugeWithTheEventLoopWatchOff() {
		this.runner.withPropertyValues("safe-defaults.stuck-requests.event-loop.enabled=false")
			.run((context) -> assertThat(context.getBean(MeterRegistry.class)
				.find(EventLoopMetricsAutoConfiguration.EVENT_LOOPS_BLOCKED)
				.gauge()).isNull());
	}

}
