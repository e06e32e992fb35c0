package dev.safedefaults.runtime;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.runtime.actuate.RuntimeMetricsAutoConfiguration;
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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The detector in an application context, on this JVM's own flight recorder. Readings are
 * taken every 100 ms and a storm needs one second: the recorder hands events over about
 * once a second, so each test waits a few seconds for what it expects.
 */
@Slow
class RuntimeStormAutoConfigurationTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

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
		// A threshold a loaded CI machine's lookup loop surely exceeds: what is tested is what the
		// finding names, not the default threshold.
		this.runner
			.withPropertyValues("safe-defaults.checks.fail-on=warning",
					"safe-defaults.runtime.exception-storm.per-second=100")
			.run((context) -> {
				try (Load storm = new Load(RuntimeStormAutoConfigurationTests::lookUpAbsentClass)) {
					await().atMost(PATIENCE)
						.until(() -> findings(context, RuntimeStormDetector.EXCEPTION_STORM).stream()
							.anyMatch((f) -> f.message().matches(".*Top sites: \\d+%.*")));
				}
				assertThat(context).hasNotFailed();
				Finding finding = findings(context, RuntimeStormDetector.EXCEPTION_STORM).get(0);
				assertThat(finding.severity()).isEqualTo(Severity.WARNING);
				assertThat(finding.message()).containsPattern("Top sites: \\d+% java.lang.ClassNotFoundException at "
						+ "dev.safedefaults.runtime.RuntimeStormAutoConfigurationTests.lookUpAbsentClass:\\d+");
			});
	}

	@Test
	void aPrintStackTraceStormYieldsTheStderrFindingAndSystemErrIsRestoredOnClose() {
		this.runner.run((context) -> {
			assertThat(System.err).isNotSameAs(this.sink);
			try (Load storm = new Load(RuntimeStormAutoConfigurationTests::printAnIndexOutOfBounds)) {
				await().atMost(PATIENCE)
					.until(() -> !findings(context, RuntimeStormDetector.STDERR_STACK_TRACES).isEmpty());
			}
			assertThat(findings(context, RuntimeStormDetector.STDERR_STACK_TRACES)).singleElement()
				.extracting(Finding::message)
				.asString()
				.contains("Most frequent: 100% java.lang.ArrayIndexOutOfBoundsException");
		});
		assertThat(System.err).isSameAs(this.sink);
	}

	@Test
	void anIdleJvmYieldsNoFinding() {
		this.runner.run((context) -> {
			RuntimeStormDetector detector = context.getBean(RuntimeStormDetector.class);
			await().atMost(PATIENCE).until(() -> detector.readings() >= 4);
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			assertThat(detector.throwables()).isPositive();
		});
	}

	@Test
	void aNormalLoadYieldsNoFinding() {
		this.runner.withConfiguration(AutoConfigurations.of(RuntimeMetricsAutoConfiguration.class))
			.withUserConfiguration(MeterRegistryConfiguration.class)
			.run((context) -> {
				RuntimeStormDetector detector = context.getBean(RuntimeStormDetector.class);
				Timer requests = context.getBean(MeterRegistry.class).timer("http.server.requests", "uri", "/orders");
				int[] served = new int[1];
				try (Load load = new Load(() -> {
					// one request in ten hits a bad id: 0.1 throwable per request, ~100 a second
					requests.record(() -> {
						if (++served[0] % 10 == 0) {
							try {
								Long.parseLong("not-a-number");
							}
							catch (NumberFormatException ex) {
								// answered with a 400
							}
						}
					});
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
				})) {
					long start = detector.readings();
					await().atMost(PATIENCE).until(() -> detector.readings() >= start + 4);
				}
				assertThat(context.getBean(RequestCounter.class).completedRequests()).isPositive();
				assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			});
	}

	@Test
	void theStatusSaysWhatIsWatched() {
		this.runner.run((context) -> {
			FeatureStatus status = status(context);
			assertThat(status.enabled()).isTrue();
			assertThat(status.appliedTo()).contains("no exception storm so far", "no System.err stack-trace storm so far")
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
