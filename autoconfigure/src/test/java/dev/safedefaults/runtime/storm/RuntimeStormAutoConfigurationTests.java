package dev.safedefaults.runtime.storm;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.runtime.storm.actuate.RuntimeMetricsAutoConfiguration;
import dev.safedefaults.testsupport.OnEveryJdk;
import dev.safedefaults.testsupport.Slow;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * The detector in an application context, on this JVM's own flight recorder. Readings are
 * taken every 100 ms and a storm needs one second; the recorder hands them over about
 * once a second. Every wait is measured in the detector's readings, not on the wall
 * clock: what is expected must appear, and what must not appear must stay away, while the
 * readings cover {@link #OBSERVED} of the JVM's time from the first reading after the
 * load started. A loaded machine makes the tests slower, not red. The tests that expect a
 * storm are the positive controls of those that expect none: the same observation is long
 * enough to raise one. Covers {@code JfrThrowableSource} (this JVM's own throwables, and
 * the calling site of a storm, read from its flight recorder) and
 * {@code RuntimeFeatureStatus} (what is watched, off by default and how to switch it on,
 * the flight recorder absent).
 */
@OnEveryJdk
@Slow
class RuntimeStormAutoConfigurationTests {

	/**
	 * Five times {@code sustained-for}: a storm that is there is raised, with its sites,
	 * well within it.
	 */
	private static final Duration OBSERVED = Duration.ofSeconds(5);

	/**
	 * Only against a flight recorder that stops handing readings over: no wait ends on it
	 * otherwise.
	 */
	private static final Duration HANG_GUARD = Duration.ofMinutes(5);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, RuntimeStormAutoConfiguration.class))
		.withPropertyValues("safe-defaults.runtime.enabled=true", "safe-defaults.runtime.sampling-period=100ms",
				"safe-defaults.runtime.sustained-for=1s");

	private PrintStream systemErr;

	private final PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), true);

	@BeforeEach
	void quietSystemErr() {
		this.systemErr = System.err;
		System.setErr(this.sink);
	}

	@AfterEach
	void restoreSystemErr() {
		System.setErr(this.systemErr);
	}

	/** Incident 1: a class looked up again and again although it is not there. */
	static void lookUpAbsentClass() {
		try {
			Class.forName("dev.safedefaults.runtime.NotThere");
		}
		catch (ClassNotFoundException ex) {
			// what the converters of incident 1 did, eight times per call
		}
	}

	/** Incident 8: a tracing agent printing the exception it hit on every log call. */
	static void printAnIndexOutOfBounds() {
		new ArrayIndexOutOfBoundsException(5).printStackTrace();
		LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
	}

	private static List<Finding> findings(AssertableApplicationContext context, String id) {
		return context.getBean(FindingsStore.class).findings().stream().filter((f) -> f.id().equals(id)).toList();
	}

	/**
	 * Waits for the detector's first reading after now.
	 * @return the JVM's time of that reading
	 */
	private static Instant nextReading(RuntimeStormDetector detector) {
		long seen = detector.readings();
		await().atMost(HANG_GUARD).until(() -> detector.readings() > seen);
		return detector.lastReadingTime();
	}

	/**
	 * Waits for a reading of the detector before a load starts. The context's own start
	 * creates throwables (the class look-ups of its conditions); on a loaded machine they
	 * could fall in the first reading after the load started, next to its first few
	 * requests, and read as hundreds per request (seen once in CI: 433/s over 2
	 * requests). Read first, they fall in a reading without requests, where the
	 * per-request rule does not apply.
	 */
	private static void afterTheStartsOwnThrowables(AssertableApplicationContext context) {
		nextReading(context.getBean(RuntimeStormDetector.class));
	}

	private static boolean observedSince(RuntimeStormDetector detector, Instant from) {
		return !detector.lastReadingTime().isBefore(from.plus(OBSERVED));
	}

	/**
	 * Waits until the condition holds; fails when the readings since the next one have
	 * covered {@link #OBSERVED} without it.
	 */
	private static void awaitWithinObservation(AssertableApplicationContext context, String what,
			BooleanSupplier condition) {
		RuntimeStormDetector detector = context.getBean(RuntimeStormDetector.class);
		Instant from = nextReading(detector);
		await().atMost(HANG_GUARD).until(() -> condition.getAsBoolean() || observedSince(detector, from));
		assertThat(condition.getAsBoolean())
			.as("%s within readings covering %s from %s (last reading %s); findings: %s", what, OBSERVED, from,
					detector.lastReadingTime(), context.getBean(FindingsStore.class).findings())
			.isTrue();
	}

	/**
	 * Asserts, at every poll, that there is no finding, until the readings since the next
	 * one have covered {@link #OBSERVED}.
	 */
	private static void assertNoFindingWithinObservation(AssertableApplicationContext context) {
		RuntimeStormDetector detector = context.getBean(RuntimeStormDetector.class);
		FindingsStore store = context.getBean(FindingsStore.class);
		Instant from = nextReading(detector);
		await().atMost(HANG_GUARD).until(() -> {
			assertThat(store.findings()).as("findings").isEmpty();
			return observedSince(detector, from);
		});
		assertThat(store.findings()).isEmpty();
	}

	private static FeatureStatus status(AssertableApplicationContext context) {
		return context.getBeansOfType(FeatureStatusReporter.class)
			.values()
			.stream()
			.map(FeatureStatusReporter::status)
			.filter((status) -> status.feature().equals("runtime"))
			.findFirst()
			.orElseThrow();
	}

	@Test
	void aClassNotFoundStormYieldsTheFindingNamingTheCallingSiteAndNeverFailsTheApplication() {
		// A threshold a loaded CI machine's lookup loop surely exceeds: what is tested is
		// what the
		// finding names, not the default threshold.
		this.runner
			.withPropertyValues("safe-defaults.checks.fail-on=warning",
					"safe-defaults.runtime.exception-storm.per-second=100")
			.run((context) -> {
				try (Load storm = new Load(RuntimeStormAutoConfigurationTests::lookUpAbsentClass)) {
					awaitWithinObservation(context, "an exception storm naming its top sites",
							() -> findings(context, RuntimeStormDetector.EXCEPTION_STORM).stream()
								.anyMatch((f) -> f.message().matches(".*Top sites: \\d+%.*")));
				}
				assertThat(context).hasNotFailed();
				Finding finding = findings(context, RuntimeStormDetector.EXCEPTION_STORM).get(0);
				assertThat(finding.severity()).isEqualTo(Severity.WARNING);
				assertThat(finding.message()).containsPattern("Top sites: \\d+% java.lang.ClassNotFoundException at "
						+ "dev.safedefaults.runtime.storm.RuntimeStormAutoConfigurationTests.lookUpAbsentClass:\\d+");
				// With fail-on=warning and the finding raised, the application runs on,
				// and
				// its stop and close at run time go through.
				ConfigurableApplicationContext application = context
					.getSourceApplicationContext(ConfigurableApplicationContext.class);
				RuntimeStormDetector detector = context.getBean(RuntimeStormDetector.class);
				assertThat(application.isActive()).isTrue();
				assertThat(application.isRunning()).isTrue();
				assertThat(detector.isRunning()).isTrue();
				assertThat(nextReading(detector)).as("a reading after the finding").isNotNull();
				assertThatNoException().as("the detector's stop").isThrownBy(detector::stop);
				assertThat(detector.isRunning()).isFalse();
				assertThatNoException().as("the application's close").isThrownBy(application::close);
				assertThat(application.isActive()).isFalse();
			});
	}

	@Test
	void aPrintStackTraceStormYieldsTheStderrFindingAndSystemErrIsRestoredOnClose() {
		this.runner.run((context) -> {
			assertThat(System.err).isNotSameAs(this.sink);
			try (Load storm = new Load(RuntimeStormAutoConfigurationTests::printAnIndexOutOfBounds)) {
				awaitWithinObservation(context, "a System.err stack-trace storm",
						() -> !findings(context, RuntimeStormDetector.STDERR_STACK_TRACES).isEmpty());
			}
			assertThat(findings(context, RuntimeStormDetector.STDERR_STACK_TRACES)).singleElement()
				.extracting(Finding::message)
				.asString()
				.contains("Most frequent: 100% java.lang.ArrayIndexOutOfBoundsException");
		});
		assertThat(System.err).isSameAs(this.sink);
	}

	@Test
	void anIdleJvmYieldsNoFindingForFiveStormDurations() {
		this.runner.run((context) -> {
			assertNoFindingWithinObservation(context);
			assertThat(context.getBean(RuntimeStormDetector.class).throwables()).isPositive();
		});
	}

	@Test
	void aLoadAtHalfThePerRequestThresholdYieldsNoFindingForFiveStormDurations() {
		// Every other request fails: 0.5 throwables per request, the threshold 1 (the
		// JVM's own few
		// throwables a second count too: the margin holds down to ~12 requests a second).
		this.runner.withConfiguration(AutoConfigurations.of(RuntimeMetricsAutoConfiguration.class))
			.withUserConfiguration(MeterRegistryConfiguration.class)
			.withPropertyValues("safe-defaults.runtime.exception-storm.per-request=1")
			.run((context) -> {
				afterTheStartsOwnThrowables(context);
				try (Load load = everyOtherRequestFailing(context)) {
					assertNoFindingWithinObservation(context);
				}
				assertThat(context.getBean(RequestCounter.class).completedRequests()).isPositive();
			});
	}

	@Test
	void theSameLoadAtTwiceThePerRequestThresholdIsAStormWithinTheSameObservation() {
		// The positive control of the test above: the threshold 0.25, all else the same.
		this.runner.withConfiguration(AutoConfigurations.of(RuntimeMetricsAutoConfiguration.class))
			.withUserConfiguration(MeterRegistryConfiguration.class)
			.withPropertyValues("safe-defaults.runtime.exception-storm.per-request=0.25")
			.run((context) -> {
				try (Load load = everyOtherRequestFailing(context)) {
					awaitWithinObservation(context, "an exception storm per request",
							() -> findings(context, RuntimeStormDetector.EXCEPTION_STORM).stream()
								.anyMatch((f) -> f.message().contains(" per request over the last ")));
				}
			});
	}

	@Test
	void halfTheRequestsFailingIsNoStormWithTheDefaultThresholds() {
		this.runner.withConfiguration(AutoConfigurations.of(RuntimeMetricsAutoConfiguration.class))
			.withUserConfiguration(MeterRegistryConfiguration.class)
			.run((context) -> {
				afterTheStartsOwnThrowables(context);
				try (Load load = everyOtherRequestFailing(context)) {
					assertNoFindingWithinObservation(context);
				}
				assertThat(context.getBean(RequestCounter.class).completedRequests()).isPositive();
			});
	}

	/**
	 * Requests recorded in {@code http.server.requests} about once a millisecond, every
	 * other one hitting a bad id (a {@link NumberFormatException} answered with a 400).
	 */
	private static Load everyOtherRequestFailing(AssertableApplicationContext context) {
		Timer requests = context.getBean(MeterRegistry.class).timer("http.server.requests", "uri", "/orders");
		int[] served = new int[1];
		return new Load(() -> {
			requests.record(() -> {
				if (++served[0] % 2 == 0) {
					try {
						Long.parseLong("not-a-number");
					}
					catch (NumberFormatException ex) {
						// answered with a 400
					}
				}
			});
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		});
	}

	@Test
	void theStatusSaysWhatIsWatched() {
		this.runner.run((context) -> {
			FeatureStatus status = status(context);
			assertThat(status.enabled()).isTrue();
			assertThat(status.appliedTo())
				.contains("no exception storm so far", "no System.err stack-trace storm so far")
				.anySatisfy((line) -> assertThat(line)
					.startsWith("exception storms: the flight recorder's jdk.ExceptionStatistics every 100 ms"))
				.anySatisfy((line) -> assertThat(line).startsWith("System.err: stack traces counted"));
		});
	}

	@Test
	void isOffByDefaultAndSaysHowToSwitchItOn() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, RuntimeStormAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(RuntimeStormDetector.class);
				assertThat(System.err).isSameAs(this.sink);
				assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
				assertThat(status(context).enabled()).isFalse();
				assertThat(status(context).reason()).contains("safe-defaults.runtime.enabled=true");
			});
	}

	@Test
	void falseSwitchesItAllOff() {
		this.runner.withPropertyValues("safe-defaults.runtime.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(RuntimeStormDetector.class);
			assertThat(System.err).isSameAs(this.sink);
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			assertThat(status(context).enabled()).isFalse();
		});
	}

	@Test
	void theMasterSwitchRemovesTheDetectorAndItsStatus() {
		this.runner.withPropertyValues("safe-defaults.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(RuntimeStormDetector.class)
				.doesNotHaveBean(FeatureStatusReporter.class);
			assertThat(System.err).isSameAs(this.sink);
		});
	}

	@Test
	void withoutTheFlightRecorderThereIsOneInfoFindingAndNothingElse() {
		this.runner.withClassLoader(new FilteredClassLoader("jdk.jfr")).run((context) -> {
			assertThat(context.getBean(FindingsStore.class).findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(RuntimeStormDetector.JFR_UNAVAILABLE);
				assertThat(finding.severity()).isEqualTo(Severity.INFO);
				assertThat(finding.message()).contains("the jdk.jfr module is absent");
			});
			assertThat(System.err).isSameAs(this.sink);
			assertThat(context.getBean(RuntimeStormDetector.class).isFlightRecorderAvailable()).isFalse();
			assertThat(status(context).enabled()).isFalse();
			assertThat(status(context).reason()).startsWith("exception storms cannot be detected");
		});
	}

	@Test
	void aSamplingPeriodBelowTenMillisecondsFailsStartup() {
		this.runner.withPropertyValues("safe-defaults.runtime.sampling-period=1ms").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("safe-defaults.runtime.sampling-period")
				.hasMessageContaining("from 10ms to 1m");
		});
	}

	@Test
	void aThresholdThatIsNotPositiveFailsStartup() {
		this.runner.withPropertyValues("safe-defaults.runtime.exception-storm.per-request=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("safe-defaults.runtime.exception-storm.per-request")
				.hasMessageContaining("above 0");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class MeterRegistryConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	/**
	 * Runs a task over and over on a daemon thread until closed.
	 */
	static final class Load implements AutoCloseable {

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final Thread thread;

		Load(Runnable task) {
			this.thread = new Thread(() -> {
				while (this.running.get()) {
					task.run();
				}
			}, "test-load");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		@Override
		public void close() throws InterruptedException {
			this.running.set(false);
			this.thread.join();
		}

	}

}
