package dev.safedefaults.runtime.storm.actuate;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.runtime.storm.RequestCounter;
import dev.safedefaults.runtime.storm.RuntimeStormAutoConfiguration;
import dev.safedefaults.testsupport.OnEveryJdk;
import dev.safedefaults.testsupport.Slow;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@OnEveryJdk
@Slow
class RuntimeMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, RuntimeStormAutoConfiguration.class,
						RuntimeMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
						CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
		.withPropertyValues("safe-defaults.runtime.enabled=true", "safe-defaults.runtime.sampling-period=100ms");

	private PrintStream systemErr;

	@BeforeEach
	void quietSystemErr() {
		this.systemErr = System.err;
		System.setErr(new PrintStream(OutputStream.nullOutputStream(), true));
	}

	@AfterEach
	void restoreSystemErr() {
		System.setErr(this.systemErr);
	}

	@Test
	void theThrowablesCounterFollowsTheJvmsCount() {
		this.runner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			FunctionCounter counter = registry.get(RuntimeMeterBinder.THROWABLES).functionCounter();
			await().atMost(Duration.ofSeconds(30)).until(() -> counter.count() > 0);
			long jvmBefore = jvmThrowables();
			for (int i = 0; i < 1000; i++) {
				new IllegalStateException();
			}
			long jvmAfter = jvmThrowables();
			assertThat(jvmAfter - jvmBefore).as("the JVM's own count, read from a recording of the test's")
				.isGreaterThanOrEqualTo(1000);
			// The counter reaches the JVM's count as it was once the throwables existed
			// ...
			await().atMost(Duration.ofSeconds(30)).until(() -> counter.count() >= jvmAfter);
			double seen = counter.count();
			// ... and never passes the JVM's count read after it: it is that count, one
			// sampling period late at most, not a count of its own.
			assertThat(seen).isBetween((double) jvmAfter, (double) jvmThrowables());
		});
	}

	/**
	 * The JVM's cumulative count of created throwables, from the first
	 * {@code jdk.ExceptionStatistics} event of a recording stream of the test's own,
	 * started now: the count at a moment after this call, waited for with a bound.
	 */
	private static long jvmThrowables() throws Exception {
		CompletableFuture<Long> count = new CompletableFuture<>();
		try (RecordingStream stream = new RecordingStream()) {
			stream.enable("jdk.ExceptionStatistics").withPeriod(Duration.ofMillis(10));
			stream.onEvent("jdk.ExceptionStatistics", (event) -> count.complete(event.getLong("throwables")));
			stream.startAsync();
			return count.get(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void withoutTheFlightRecorderThereIsNoCounter() {
		this.runner.withClassLoader(new FilteredClassLoader("jdk.jfr")).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(MeterRegistry.class).find(RuntimeMeterBinder.THROWABLES).meter()).isNull();
		});
	}

	@Test
	void optOutRemovesTheCounterAndTheRequestCount() {
		this.runner.withPropertyValues("safe-defaults.runtime.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(RequestCounter.class);
			assertThat(context.getBean(MeterRegistry.class).find(RuntimeMeterBinder.THROWABLES).meter()).isNull();
		});
	}

	@Test
	void requestsAreCountedOverEveryHttpServerRequestsTimer() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		HttpServerRequestCounter requests = new HttpServerRequestCounter(
				new StaticListableBeanFactory(Map.of("registry", registry)).getBeanProvider(MeterRegistry.class));
		assertThat(requests.completedRequests()).isNegative();
		registry.timer(HttpServerRequestCounter.HTTP_SERVER_REQUESTS, "uri", "/a").record(Duration.ofMillis(1));
		registry.timer(HttpServerRequestCounter.HTTP_SERVER_REQUESTS, "uri", "/b").record(Duration.ofMillis(1));
		registry.timer(HttpServerRequestCounter.HTTP_SERVER_REQUESTS, "uri", "/b").record(Duration.ofMillis(1));
		registry.timer("http.client.requests").record(Duration.ofMillis(1));
		assertThat(requests.completedRequests()).isEqualTo(3);
	}

	@Test
	void anApplicationsOwnRequestCounterIsKept() {
		this.runner.withBean("messages", RequestCounter.class, () -> () -> 42).run((context) -> {
			assertThat(context).getBean(RequestCounter.class)
				.extracting(RequestCounter::completedRequests)
				.isEqualTo(42L);
		});
	}

}
