package dev.safedefaults.logging.log4j2;

import java.time.Duration;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.actuate.LoggingMeterBinder;
import dev.safedefaults.logging.log4j2.actuate.LoggingMetricsAutoConfiguration;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.async.EventRoute;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application contexts in one JVM (a DevTools restart, a test's second context): the
 * queue-full policy and the stack-trace throttling Log4j created once follow the settings
 * of the context that configured them last and is still open, and each context counts its
 * own discards.
 */
class LoggingStatePerContextTests {

	/** Not Log4j's background thread: a request thread. */
	private static final long BACKGROUND_THREAD_ID = -1;

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class,
					Log4j2DefaultsAutoConfiguration.class, LoggingMetricsAutoConfiguration.class));

	/** The instance Log4j created from the class name, before any context. */
	private final CountingQueueFullPolicy policy = new CountingQueueFullPolicy();

	@Test
	void aRestartedContextGetsItsOwnSettingsAndCountsFromZero() {
		this.runner
			.withPropertyValues("safe-defaults.logging.discard-threshold=info",
					"safe-defaults.logging.stack-traces.first-n=5")
			.run((first) -> {
				discardInfo(3);
				assertThat(discarded(first)).isEqualTo(3);
				assertThat(StackTraceThrottling.settings().firstN()).isEqualTo(5);
			});
		// The restart: the first context has closed, a new one starts with other
		// settings.
		this.runner
			.withPropertyValues("safe-defaults.logging.discard-threshold=debug",
					"safe-defaults.logging.stack-traces.first-n=7")
			.run((second) -> {
				assertThat(discarded(second)).as("the first context's discards").isZero();
				assertThat(this.policy.getRoute(BACKGROUND_THREAD_ID, Level.INFO)).as("INFO under a DEBUG threshold")
					.isEqualTo(EventRoute.ENQUEUE);
				assertThat(this.policy.getRoute(BACKGROUND_THREAD_ID, Level.DEBUG)).isEqualTo(EventRoute.DISCARD);
				assertThat(discarded(second)).isEqualTo(1);
				assertThat(StackTraceThrottling.settings())
					.isEqualTo(new StackTraceThrottling.Settings(7, Duration.ofMinutes(1), 1024));
			});
		assertThat(StackTraceThrottling.settings().firstN()).as("no context open: the defaults")
			.isEqualTo(StackTraceThrottling.DEFAULT_FIRST_N);
	}

	@Test
	void twoOpenContextsDoNotShareTheirCounters() {
		this.runner.run((first) -> {
			discardInfo(2);
			this.runner.withPropertyValues("safe-defaults.logging.queue-full-policy=block").run((second) -> {
				assertThat(this.policy.getRoute(BACKGROUND_THREAD_ID, Level.INFO)).as("the second context blocks")
					.isEqualTo(EventRoute.ENQUEUE);
				assertThat(discarded(second)).isZero();
				assertThat(discarded(first)).isEqualTo(2);
			});
			// The second context has closed: the first one's settings are in force again.
			discardInfo(1);
			assertThat(discarded(first)).isEqualTo(3);
		});
	}

	private void discardInfo(int times) {
		for (int i = 0; i < times; i++) {
			// What Log4j asks when the ring buffer is full.
			assertThat(this.policy.getRoute(BACKGROUND_THREAD_ID, Level.INFO)).isEqualTo(EventRoute.DISCARD);
		}
	}

	private static double discarded(AssertableApplicationContext context) {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		context.getBean(LoggingMeterBinder.class).bindTo(registry);
		return registry.get(LoggingMeterBinder.DISCARDED).functionCounter().count();
	}

}
