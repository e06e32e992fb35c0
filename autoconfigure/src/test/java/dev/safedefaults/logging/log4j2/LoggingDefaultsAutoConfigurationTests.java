package dev.safedefaults.logging.log4j2;

import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingSystemCheck;
import dev.safedefaults.logging.NotLog4j2LoggingSystem;
import dev.safedefaults.logging.QueueFullMode;
import dev.safedefaults.logging.log4j2.actuate.LoggingMetricsAutoConfiguration;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The logging defaults on Log4j2 and the logging system's check, in an application
 * context. Covers {@code LoggingFeatureStatus} (all loggers asynchronous; switched off in
 * the application's properties) and, without log4j-core, the status that says the library
 * is absent ({@code LibraryAbsentFeatureStatus}).
 */
@OnEveryJdk
class LoggingDefaultsAutoConfigurationTests {

	private static final String TRAP_LOGGER = "com.example.trap";

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class,
					Log4j2DefaultsAutoConfiguration.class, LoggingMetricsAutoConfiguration.class));

	private final LoggingSystem bootLogging = LoggingSystem.get(getClass().getClassLoader());

	@AfterEach
	void reset() {
		this.bootLogging.setLogLevel(TRAP_LOGGER, null);
		CountingQueueFullPolicy.configure(QueueFullMode.DISCARD, Level.INFO);
	}

	private static List<String> ids(FindingsStore store) {
		return store.findings().stream().map(Finding::id).toList();
	}

	@Test
	void theTestsRunOnTheAllAsyncContextTheStartersPropertySourceSelects() {
		assertThat(LogManager.getContext(false).getClass().getName())
			.isEqualTo("org.apache.logging.log4j.core.async.AsyncLoggerContext");
	}

	@Test
	void defaultsAreAppliedAndTheCheckFindsNothing() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LocationCaptureRemover.class)
				.hasSingleBean(Log4jConfigurationCheck.class)
				.hasSingleBean(Log4jCheckRerunner.class)
				.hasSingleBean(QueueFullPolicyConfigurer.class);
			assertThat(ids(context.getBean(FindingsStore.class))).isEmpty();
			assertThat(CountingQueueFullPolicy.mode()).isEqualTo(QueueFullMode.DISCARD);
			FeatureStatus status = context.getBean(FeatureStatusReporter.class).status();
			assertThat(status.enabled()).isTrue();
			assertThat(status.appliedTo()).anySatisfy((s) -> assertThat(s).startsWith("all loggers asynchronous"));
		});
	}

	@Test
	void bootsLevelLoggerStopsCapturingLocationAtStartupAndWhenAddedLater() {
		this.bootLogging.setLogLevel(TRAP_LOGGER, LogLevel.DEBUG);
		LoggerContext log4j = (LoggerContext) LogManager.getContext(false);
		assertThat(log4j.getConfiguration().getLoggerConfig(TRAP_LOGGER).isIncludeLocation()).isTrue();
		this.runner.run((context) -> {
			assertThat(log4j.getConfiguration().getLoggerConfig(TRAP_LOGGER).isIncludeLocation()).isFalse();
			assertThat(log4j.getConfiguration().getLoggerConfig(TRAP_LOGGER).getLevel()).isEqualTo(Level.DEBUG);
			this.bootLogging.setLogLevel(TRAP_LOGGER, LogLevel.TRACE);
			this.bootLogging.setLogLevel(TRAP_LOGGER + ".deeper", LogLevel.DEBUG);
			assertThat(log4j.getConfiguration().getLoggerConfig(TRAP_LOGGER + ".deeper").isIncludeLocation()).isFalse();
			assertThat(ids(context.getBean(FindingsStore.class))).isEmpty();
			this.bootLogging.setLogLevel(TRAP_LOGGER + ".deeper", null);
		});
	}

	@Test
	void switchedOffInApplicationPropertiesTheLevelLoggerTrapIsReportedAndReReportedOnReconfiguration() {
		this.runner.withPropertyValues("safe-defaults.logging.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(LocationCaptureRemover.class);
			assertThat(CountingQueueFullPolicy.mode()).isEqualTo(QueueFullMode.BLOCK);
			FindingsStore store = context.getBean(FindingsStore.class);
			assertThat(ids(store)).contains("logging.blocking-queue-full").doesNotContain("logging.include-location");
			// The user set no log4j2.asyncQueueFullPolicy: the finding names what they
			// did set.
			assertThat(store.findings()).filteredOn((f) -> f.id().equals("logging.blocking-queue-full"))
				.singleElement()
				.satisfies((f) -> {
					assertThat(f.message()).contains("safe-defaults.logging.enabled=false");
					assertThat(f.fix()).contains("Remove safe-defaults.logging.enabled=false")
						.doesNotContain("asyncQueueFullPolicy override");
				});
			// Reconfiguration (here Boot's loggers endpoint path) re-runs the check.
			this.bootLogging.setLogLevel(TRAP_LOGGER + ".off", LogLevel.DEBUG);
			assertThat(store.findings()).anySatisfy((f) -> {
				assertThat(f.id()).isEqualTo("logging.include-location");
				assertThat(f.subject()).isEqualTo(TRAP_LOGGER + ".off");
				// A logger from logging.level.* has no includeLocation attribute to set.
				assertThat(f.message()).contains("logging.level." + TRAP_LOGGER + ".off");
				assertThat(f.fix()).contains("Remove safe-defaults.logging.enabled=false")
					.doesNotContain("Set includeLocation");
			});
			this.bootLogging.setLogLevel(TRAP_LOGGER + ".off", null);
			assertThat(ids(store)).doesNotContain("logging.include-location");
			assertThat(context.getBean(FeatureStatusReporter.class).status().enabled()).isFalse();
		});
	}

	@Test
	void queueFullPolicyAndThresholdComeFromSpringProperties() {
		this.runner
			.withPropertyValues("safe-defaults.logging.queue-full-policy=block",
					"safe-defaults.logging.discard-threshold=debug")
			.run((context) -> {
				assertThat(CountingQueueFullPolicy.mode()).isEqualTo(QueueFullMode.BLOCK);
				assertThat(CountingQueueFullPolicy.threshold()).isEqualTo(Level.DEBUG);
			});
	}

	@Test
	void aDiscardThresholdAboveInfoIsRefusedNamingTheAllowedValues() {
		this.runner.withPropertyValues("safe-defaults.logging.discard-threshold=warn").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("safe-defaults.logging.discard-threshold")
				.hasStackTraceContaining("warn");
		});
	}

	@Test
	void aTooSmallRingBufferIsRefused() {
		this.runner.withPropertyValues("safe-defaults.logging.ring-buffer-size=64").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
					assertThat(ex.getName()).isEqualTo("safe-defaults.logging.ring-buffer-size");
					assertThat(ex.getReason()).contains("128");
				});
		});
	}

	@Test
	void withoutLog4jCoreTheFeatureSaysWhyAndTheSystemCheckStillRuns() {
		this.runner.withClassLoader(new FilteredClassLoader("org.apache.logging.log4j.core")).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(LocationCaptureRemover.class)
				.doesNotHaveBean(Log4jConfigurationCheck.class)
				.hasSingleBean(LoggingSystemCheck.class);
			FeatureStatus status = context.getBean(FeatureStatusReporter.class).status();
			assertThat(status.enabled()).isFalse();
			assertThat(status.reason()).contains("log4j-core");
		});
	}

	@Test
	void aLoggingSystemOtherThanLog4j2IsReported() {
		this.runner.withBean(LoggingSystem.class, NotLog4j2LoggingSystem::new).run((context) -> {
			assertThat(ids(context.getBean(FindingsStore.class))).containsExactly("logging.not-log4j2");
		});
	}

	@Test
	void switchingOffBootsLoggingShutdownHookIsReported() {
		this.runner.withPropertyValues("logging.register-shutdown-hook=false")
			.run((context) -> assertThat(ids(context.getBean(FindingsStore.class)))
				.containsExactly("logging.no-shutdown-hook"));
	}

}
