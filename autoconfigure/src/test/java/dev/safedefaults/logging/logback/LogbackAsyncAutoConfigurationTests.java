package dev.safedefaults.logging.logback;

import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.Log4j2DefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.actuate.LoggingMetricsAutoConfiguration;
import dev.safedefaults.logging.logback.actuate.LogbackLoggingMetricsAutoConfiguration;
import dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Logback route's auto-configuration, on the Logback context SLF4J is bound to (this
 * execution's class path has Logback and no Log4j SLF4J provider, as an application that
 * keeps Logback). Covers {@code ConditionalOnLogbackLoggingSystem} and its
 * {@code OnLogbackLoggingSystemCondition}: both Logback auto-configurations apply or back
 * off together, with the reason in the condition report.
 */
@Tag(LogbackFixtures.TAG)
class LogbackAsyncAutoConfigurationTests {

	// Log4j core is on this class path too (the repository's tests run on Log4j2):
	// hidden,
	// so that only the Logback side applies, as in an application that keeps Logback.
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withClassLoader(new FilteredClassLoader("org.apache.logging.log4j.core"))
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class,
						Log4j2DefaultsAutoConfiguration.class, LogbackAsyncAutoConfiguration.class,
						LoggingMetricsAutoConfiguration.class, LogbackLoggingMetricsAutoConfiguration.class));

	private final LoggerContext logback = LogbackContexts.running();

	private LogbackFixtures.Recording application;

	@BeforeEach
	void applicationsOwnAppender() {
		this.logback.reset();
		this.application = new LogbackFixtures.Recording("APP", false);
		this.application.setContext(this.logback);
		this.application.start();
		root().setLevel(Level.INFO);
		root().addAppender(this.application);
	}

	@AfterEach
	void reset() {
		this.logback.reset();
	}

	private Logger root() {
		return this.logback.getLogger(Logger.ROOT_LOGGER_NAME);
	}

	private List<Appender<ILoggingEvent>> rootAppenders() {
		List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
		for (Iterator<Appender<ILoggingEvent>> it = root().iteratorForAppenders(); it.hasNext();) {
			appenders.add(it.next());
		}
		return appenders;
	}

	private CountingAsyncAppender wrapper() {
		assertThat(rootAppenders()).singleElement().isInstanceOf(CountingAsyncAppender.class);
		return (CountingAsyncAppender) rootAppenders().get(0);
	}

	@Test
	void theRunningContextsAppendersAreWrappedAndTheStatusSaysSo() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LogbackAsyncWrapping.class);
			assertThat(wrapper().getDelegate()).isSameAs(this.application);
			assertThat(wrapper().getQueueCapacity()).isEqualTo(32_768);
			FeatureStatus status = context.getBean("safeDefaultsLogbackFeatureStatus", FeatureStatusReporter.class)
				.status();
			assertThat(status.enabled()).isTrue();
			assertThat(status.appliedTo()).containsExactly(
					"Logback: 1 appender(s) [APP] wrapped behind bounded queues of 32768 events, no caller data",
					"queue full: discard at or below INFO, 0 discarded so far",
					"WARN and ERROR wait at most 2s for room in a full queue, then are dropped and counted until the "
							+ "stalled output drains; 0 WARN and 0 ERROR dropped so far");
			assertThat(context).doesNotHaveBean("safeDefaultsLoggingFeatureStatusWithoutLog4j");
		});
	}

	@Test
	void theLoggingPropertiesMapAsOnLog4j2() {
		this.runner
			.withPropertyValues("safe-defaults.logging.ring-buffer-size=256",
					"safe-defaults.logging.queue-full-policy=block", "safe-defaults.logging.discard-threshold=debug")
			.run((context) -> {
				WrappingSettings settings = context.getBean(LogbackAsyncWrapping.class).settings();
				assertThat(settings.queueCapacity()).isEqualTo(256);
				assertThat(settings.discard()).isFalse();
				assertThat(settings.threshold()).isEqualTo(Level.DEBUG);
				assertThat(wrapper().getQueueCapacity()).isEqualTo(256);
			});
	}

	@Test
	void switchedOffTheAppendersStaySynchronousAndTheStatusSaysWhy() {
		this.runner.withPropertyValues("safe-defaults.logging.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(LogbackAsyncWrapping.class);
			assertThat(rootAppenders()).containsExactly(this.application);
			FeatureStatus status = context.getBean("safeDefaultsLogbackFeatureStatus", FeatureStatusReporter.class)
				.status();
			assertThat(status.enabled()).isFalse();
			assertThat(status.reason()).contains("safe-defaults.logging.enabled=false");
		});
	}

	@Test
	void theMasterSwitchLeavesLogbackAlone() {
		this.runner.withPropertyValues("safe-defaults.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(LogbackAsyncWrapping.class);
			assertThat(rootAppenders()).containsExactly(this.application);
		});
	}

	@Test
	void withoutLogbackNothingIsWrapped() {
		this.runner.withClassLoader(new FilteredClassLoader("org.apache.logging.log4j.core", "ch.qos.logback"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(LogbackAsyncWrapping.class);
				assertThat(rootAppenders()).containsExactly(this.application);
			});
	}

	@Test
	void aSecondApplicationContextInTheJvmWrapsWithItsOwnSettingsAndCount() throws Exception {
		ConfigurableApplicationContext[] first = new ConfigurableApplicationContext[1];
		this.runner.withPropertyValues("safe-defaults.logging.ring-buffer-size=128").run((one) -> {
			first[0] = one;
			CountingAsyncAppender firstWrapper = wrapper();
			this.runner.withPropertyValues("safe-defaults.logging.ring-buffer-size=256").run((two) -> {
				CountingAsyncAppender secondWrapper = wrapper();
				assertThat(secondWrapper).isNotSameAs(firstWrapper);
				// Never a queue behind a queue: the application's appender, wrapped anew.
				assertThat(secondWrapper.getDelegate()).isSameAs(this.application);
				assertThat(secondWrapper.getQueueCapacity()).isEqualTo(256);
				assertThat(two.getBean(LogbackAsyncWrapping.class).settings())
					.isNotSameAs(one.getBean(LogbackAsyncWrapping.class).settings());
			});
		});
		assertThat(first[0].isActive()).isFalse();
	}

	@Test
	void bothLogbackAutoConfigurationsApplyWhenLogbackRuns() {
		bothLogbackAutoConfigurations().run((context) -> {
			assertThat(context).hasSingleBean(LogbackAsyncWrapping.class)
				.hasBean("safeDefaultsLogbackFeatureStatus")
				.hasSingleBean(LogbackAsyncAppenderCheck.class)
				.hasSingleBean(LogbackLocationPatternCheck.class)
				.hasSingleBean(LogbackFullStackTracesCheck.class)
				.hasSingleBean(StackTraceThrottleConfigurer.class);
			assertThat(wrapper().getDelegate()).isSameAs(this.application);
		});
	}

	@Test
	void bothLogbackAutoConfigurationsBackOffTogetherWhenBootsLoggingSystemIsNotLogback() {
		LogbackFixtures.withBootsLoggingSystemNone(() -> bothLogbackAutoConfigurations().run((context) -> {
			assertBothBackedOff(context);
			assertThat(conditionMessages(context, LogbackAsyncAutoConfiguration.class))
				.contains("Boot's logging system is " + LoggingSystem.class.getName() + "$NoOpLoggingSystem, "
						+ "not Logback");
			assertThat(conditionMessages(context, LogbackChecksAutoConfiguration.class))
				.contains("Boot's logging system is " + LoggingSystem.class.getName() + "$NoOpLoggingSystem, "
						+ "not Logback");
		}));
	}

	@Test
	void bothLogbackAutoConfigurationsBackOffTogetherWhenSlf4jIsNotBoundToLogback() throws Exception {
		try (URLClassLoader classLoader = LogbackFixtures
			.slf4jNotBoundToLogback(new FilteredClassLoader("org.apache.logging.log4j.core"))) {
			// Boot still chooses Logback on this class loader: SLF4J alone makes the
			// difference.
			assertThat(LogbackLoggingSystemChoice.isChosen(classLoader)).isTrue();
			bothLogbackAutoConfigurations().withClassLoader(classLoader).run((context) -> {
				assertBothBackedOff(context);
				String slf4jNotBound = "Boot chooses Logback, but SLF4J's logger factory is "
						+ "org.slf4j.helpers.NOPLoggerFactory, not Logback's";
				assertThat(conditionMessages(context, LogbackAsyncAutoConfiguration.class)).contains(slf4jNotBound);
				assertThat(conditionMessages(context, LogbackChecksAutoConfiguration.class)).contains(slf4jNotBound);
			});
		}
	}

	@Test
	void withLog4jCoreAlsoTheLog4jApisBackendThereIsOneLoggingStatusAndItIsLogbacks() {
		// This execution's class path, as a keep-Logback application with log4j-core and
		// without log4j-to-slf4j: Log4j core is the Log4j API's backend while Logback
		// runs. Not hidden here, unlike in the other tests.
		assertThat(LogManager.getContext(false)).isInstanceOf(org.apache.logging.log4j.core.LoggerContext.class);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					LoggingDefaultsAutoConfiguration.class, Log4j2DefaultsAutoConfiguration.class,
					LogbackAsyncAutoConfiguration.class, LogbackChecksAutoConfiguration.class))
			.run((context) -> {
				List<FeatureStatus> logging = context.getBeansOfType(FeatureStatusReporter.class)
					.values()
					.stream()
					.map(FeatureStatusReporter::status)
					.filter((status) -> status.feature().equals(LogbackFeatureStatus.FEATURE))
					.toList();
				assertThat(logging).singleElement()
					.satisfies((status) -> assertThat(status.appliedTo()).first()
						.asString()
						.startsWith("Logback: 1 appender(s) [APP] wrapped"));
				// None of the Log4j2 defaults: they would act on a Log4j context that is
				// not Boot's logging system.
				assertThat(context).doesNotHaveBean("safeDefaultsLoggingFeatureStatus")
					.doesNotHaveBean("safeDefaultsQueueFullPolicyConfigurer")
					.doesNotHaveBean("safeDefaultsLocationCaptureRemover")
					.hasSingleBean(StackTraceThrottleConfigurer.class);
			});
	}

	private ApplicationContextRunner bothLogbackAutoConfigurations() {
		return this.runner.withConfiguration(AutoConfigurations.of(LogbackChecksAutoConfiguration.class));
	}

	private void assertBothBackedOff(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed()
			.doesNotHaveBean(LogbackAsyncWrapping.class)
			.doesNotHaveBean("safeDefaultsLogbackFeatureStatus")
			.doesNotHaveBean(LogbackAsyncAppenderCheck.class)
			.doesNotHaveBean(LogbackLocationPatternCheck.class)
			.doesNotHaveBean(LogbackFullStackTracesCheck.class)
			.doesNotHaveBean(StackTraceThrottleConfigurer.class);
		assertThat(rootAppenders()).containsExactly(this.application);
	}

	private static String conditionMessages(AssertableApplicationContext context, Class<?> autoConfiguration) {
		ConditionEvaluationReport.ConditionAndOutcomes outcomes = ConditionEvaluationReport
			.get(context.getBeanFactory())
			.getConditionAndOutcomesBySource()
			.get(autoConfiguration.getName());
		assertThat(outcomes).as("the conditions of " + autoConfiguration.getSimpleName()).isNotNull();
		return StreamSupport.stream(outcomes.spliterator(), false)
			.map((outcome) -> outcome.getOutcome().getMessage())
			.collect(Collectors.joining("; "));
	}

}
