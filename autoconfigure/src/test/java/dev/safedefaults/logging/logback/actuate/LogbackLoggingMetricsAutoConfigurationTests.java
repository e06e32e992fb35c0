package dev.safedefaults.logging.logback.actuate;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.Log4j2DefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.actuate.LoggingMetricsAutoConfiguration;
import dev.safedefaults.logging.logback.LogbackAsyncAutoConfiguration;
import dev.safedefaults.logging.logback.LogbackChecksAutoConfiguration;
import dev.safedefaults.logging.logback.LogbackFixtures;
import dev.safedefaults.logging.logback.ThrottledThrowableConverterRegistration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The logging meters on Logback ({@link LogbackMeterBinder}), under the names
 * docs/metrics.md gives them on Log4j2: what the wrapped appenders' full queues discarded
 * and the stack traces {@code %throttledEx} left out, no ring-buffer gauge; none when the
 * logging defaults are off. On the Logback context SLF4J is bound to (this execution's
 * class path, as an application that keeps Logback). Covers {@code LoggingFeature}'s
 * meter names, which both routes register: here as docs/metrics.md spells them.
 */
@Tag(LogbackFixtures.TAG)
class LogbackLoggingMetricsAutoConfigurationTests {

	// Log4j core is on this class path too (the repository's tests run on Log4j2):
	// hidden, so that only the Logback side applies, as in an application that keeps
	// Logback.
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withClassLoader(new FilteredClassLoader("org.apache.logging.log4j.core"))
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class,
						Log4j2DefaultsAutoConfiguration.class, LogbackAsyncAutoConfiguration.class,
						LoggingMetricsAutoConfiguration.class, LogbackLoggingMetricsAutoConfiguration.class));

	private final LoggerContext logback = (LoggerContext) LoggerFactory.getILoggerFactory();

	@BeforeEach
	void applicationsOwnAppender() {
		this.logback.reset();
		LogbackFixtures.Recording application = new LogbackFixtures.Recording("APP", false);
		application.setContext(this.logback);
		application.start();
		root().setLevel(Level.INFO);
		root().addAppender(application);
	}

	@AfterEach
	void reset() {
		this.logback.reset();
	}

	private Logger root() {
		return this.logback.getLogger(Logger.ROOT_LOGGER_NAME);
	}

	@Test
	void logbacksMeterBinderIsTheOnlyOne() {
		this.runner.run((context) -> assertThat(context.getBeansOfType(MeterBinder.class))
			.containsOnlyKeys(LogbackLoggingMetricsAutoConfiguration.METER_BINDER));
	}

	@Test
	void withTheLoggingDefaultsOffThereAreNoMeters() {
		this.runner.withPropertyValues("safe-defaults.logging.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(MeterBinder.class));
	}

	@Test
	void discardsAreCountedInTheSameMetricAsOnLog4j2() throws Exception {
		LogbackFixtures.Recording stalled = new LogbackFixtures.Recording("STDOUT", true);
		stalled.setContext(this.logback);
		stalled.start();
		root().detachAndStopAllAppenders();
		root().addAppender(stalled);
		this.runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("safe-defaults.logging.ring-buffer-size=128")
			.run((context) -> {
				try {
					org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger("com.example.Orders");
					logger.info("held by the stalled output");
					stalled.awaitEntered();
					for (int i = 0; i < 128 + 7; i++) {
						logger.info("event {}", i);
					}
					MeterRegistry registry = context.getBean(MeterRegistry.class);
					context.getBeansOfType(io.micrometer.core.instrument.binder.MeterBinder.class)
						.values()
						.forEach((binder) -> binder.bindTo(registry));
					assertThat(registry.get("safedefaults.logging.discarded").functionCounter().count()).isEqualTo(7);
				}
				finally {
					stalled.release();
				}
			});
	}

	@Test
	void stackTracesLeftOutByThrottledExAreCountedInTheSameMetricAsOnLog4j2() {
		new ThrottledThrowableConverterRegistration().postProcessEnvironment(new MockEnvironment(),
				new SpringApplication());
		this.runner.withConfiguration(AutoConfigurations.of(LogbackChecksAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("safe-defaults.logging.stack-traces.first-n=1")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				context.getBeansOfType(io.micrometer.core.instrument.binder.MeterBinder.class)
					.values()
					.forEach((binder) -> binder.bindTo(registry));
				PatternLayout layout = new PatternLayout();
				layout.setContext(this.logback);
				layout.setPattern("%m%n%throttledEx");
				layout.start();
				IllegalStateException failure = new IllegalStateException("refused");
				for (int i = 0; i < 3; i++) {
					layout
						.doLayout(new LoggingEvent(getClass().getName(), root(), Level.ERROR, "failed", failure, null));
				}
				// first-n=1: the first rendering in full, the next two as one line each.
				assertThat(registry.get("safedefaults.logging.stack-traces.elided").functionCounter().count())
					.isEqualTo(2);
				assertThat(registry.find("safedefaults.logging.ring-buffer.remaining").meter()).isNull();
			});
	}

}
