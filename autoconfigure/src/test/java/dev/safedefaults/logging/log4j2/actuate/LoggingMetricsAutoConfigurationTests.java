package dev.safedefaults.logging.log4j2.actuate;

import java.io.StringWriter;
import java.time.Duration;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.QueueFullMode;
import dev.safedefaults.logging.log4j2.CountingQueueFullPolicy;
import dev.safedefaults.logging.log4j2.Log4j2DefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.RecordingAppender;
import dev.safedefaults.testsupport.OnEveryJdk;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The logging meters on Log4j2, as docs/metrics.md lists them: what the queue-full policy
 * discarded, the ring buffer's free slots, the stack traces {@code %throttledEx} left
 * out; and none of them when Logback's meters count instead, or without Micrometer.
 */
@OnEveryJdk
class LoggingMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class,
					Log4j2DefaultsAutoConfiguration.class, LoggingMetricsAutoConfiguration.class));

	@AfterEach
	void reset() {
		CountingQueueFullPolicy.configure(QueueFullMode.DISCARD, Level.INFO);
	}

	@Test
	void withoutMicrometerThereAreNoMetersAndTheDefaultsStillApply() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LoggingMeterBinder.class)
				.hasBean("safeDefaultsQueueFullPolicyConfigurer"));
	}

	@Test
	void whenLogbackRunsItsMetersCountAndLog4j2sStepAside() {
		this.runner.withBean("safeDefaultsLogbackMeterBinder", MeterBinder.class, () -> (registry) -> {
		}).run((context) -> assertThat(context).doesNotHaveBean(LoggingMeterBinder.class));
	}

	@Test
	void theDiscardMeterCountsEachInfoEventDroppedWhileTheRingBufferIsFull() {
		this.runner.run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(LoggingMeterBinder.class).bindTo(registry);
			FunctionCounter discarded = registry.get(LoggingMeterBinder.DISCARDED).functionCounter();
			Gauge remaining = registry.get(LoggingMeterBinder.RING_BUFFER_REMAINING).gauge();
			// The application's own Log4j context, whose ring buffer the meters read: an
			// appender
			// that holds the logging thread lets its ring buffer fill up.
			RecordingAppender stalled = new RecordingAppender("stalled", true);
			Logger logger = loggerWritingOnlyTo(stalled, "com.example.stalled");
			try {
				double before = discarded.count();
				int accepted = 0;
				while (remaining.value() > 0) {
					logger.info("accepted {}", accepted++);
				}
				assertThat(accepted).isPositive();
				assertThat(discarded.count()).isEqualTo(before);
				for (int i = 0; i < 100; i++) {
					logger.info("dropped {}", i);
				}
				assertThat(discarded.count()).isEqualTo(before + 100);
				stalled.release();
				int written = accepted;
				await().atMost(Duration.ofMinutes(1)).until(() -> stalled.written(Level.INFO) == written);
			}
			finally {
				stalled.release();
				removeLogger("com.example.stalled");
			}
		});
	}

	@Test
	void theElisionMeterCountsEachStackTraceLeftOutAfterTheFirstNOfAKind() {
		this.runner.withPropertyValues("safe-defaults.logging.stack-traces.first-n=2").run((context) -> {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(LoggingMeterBinder.class).bindTo(registry);
			FunctionCounter elided = registry.get(LoggingMeterBinder.STACK_TRACES_ELIDED).functionCounter();
			StringWriter output = new StringWriter();
			LoggerContext log4j = (LoggerContext) LogManager.getContext(false);
			WriterAppender rendering = WriterAppender.newBuilder()
				.setName("rendering")
				.setTarget(output)
				.setLayout(PatternLayout.newBuilder()
					.withPattern("%m%n%throttledEx")
					.withConfiguration(log4j.getConfiguration())
					.build())
				.build();
			rendering.start();
			Logger logger = loggerWritingOnlyTo(rendering, "com.example.failing");
			try {
				double before = elided.count();
				for (int i = 1; i <= 7; i++) {
					logger.error("call {} failed", i, downstreamFailure());
				}
				await().atMost(Duration.ofMinutes(1)).until(() -> output.toString().contains("call 7 failed"));
				assertThat(output.toString().split("stack trace elided", -1)).hasSize(6);
				assertThat(elided.count()).isEqualTo(before + 5);
			}
			finally {
				removeLogger("com.example.failing");
			}
		});
	}

	private static IllegalStateException downstreamFailure() {
		return new IllegalStateException("downstream failed");
	}

	private static Logger loggerWritingOnlyTo(Appender appender, String name) {
		LoggerContext log4j = (LoggerContext) LogManager.getContext(false);
		if (!appender.isStarted()) {
			appender.start();
		}
		LoggerConfig loggerConfig = new LoggerConfig(name, Level.INFO, false);
		loggerConfig.addAppender(appender, Level.ALL, null);
		log4j.getConfiguration().addLogger(name, loggerConfig);
		log4j.updateLoggers();
		return log4j.getLogger(name);
	}

	private static void removeLogger(String name) {
		LoggerContext log4j = (LoggerContext) LogManager.getContext(false);
		log4j.getConfiguration().removeLogger(name);
		log4j.updateLoggers();
	}

}
