package dev.safedefaults.runtime.storm.actuate;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.runtime.storm.RequestCounter;
import dev.safedefaults.runtime.storm.RuntimeStormAutoConfiguration;
import dev.safedefaults.testsupport.OnEveryJdk;
import dev.safedefaults.testsupport.Slow;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
			double before = counter.count();
			for (int i = 0; i < 1000; i++) {
				new IllegalStateException();
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> counter.count() >= before + 1000);
		});
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
