package dev.safedefaults.stuckrequests.actuate;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.stuckrequests.StuckRequestsAutoConfiguration;
import dev.safedefaults.stuckrequests.StuckRequestsMeters;
import dev.safedefaults.stuckrequests.servlet.StuckRequestsServletAutoConfiguration;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.servlet.Filter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The stuck-request watch's gauge,
 * {@value StuckRequestsMetricsAutoConfiguration#STUCK_REQUESTS}, as docs/metrics.md lists
 * it: the requests running longer than the threshold now, read from the watch
 * ({@code StuckRequestsMeters}); no gauge with the watch off, without Micrometer, or
 * outside a servlet application; with a deadline, the counter of interrupts. The sample
 * application's gauge, packaged and under load, is {@code SampleAppStuckRequestsIT}'s.
 */
class StuckRequestsMetricsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, StuckRequestsAutoConfiguration.class,
						StuckRequestsServletAutoConfiguration.class, StuckRequestsMetricsAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false", "safe-defaults.stuck-requests.threshold=1s");

	private final WebApplicationContextRunner withMetrics = this.runner
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class));

	/**
	 * Issue 51: with a deadline, the counter
	 * {@value StuckRequestsMetricsAutoConfiguration#INTERRUPTS} counts the requests it
	 * interrupted by kind; through the registered filter, the thread leaves each request
	 * with no interrupt set. Without a deadline, no counter.
	 */
	@Test
	void theInterruptsAreCountedByKindWhenTheDeadlineIsSet() throws Exception {
		this.withMetrics.run((context) -> assertThat(
				context.getBean(MeterRegistry.class).find(StuckRequestsMetricsAutoConfiguration.INTERRUPTS).meters())
			.isEmpty());
		this.withMetrics.withPropertyValues("safe-defaults.stuck-requests.interrupt-after=1s").run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(StuckRequestsMetricsAutoConfiguration.INTERRUPTS)
				.tag("kind", "lock")
				.functionCounter()
				.count()).isZero();
			Filter filter = context.getBean(FilterRegistrationBean.class).getFilter();
			CountDownLatch never = new CountDownLatch(1);
			AtomicInteger interrupted = new AtomicInteger();
			AtomicInteger leftInterrupted = new AtomicInteger();
			Thread[] requests = new Thread[2];
			for (int i = 0; i < requests.length; i++) {
				requests[i] = new Thread(() -> {
					try {
						filter.doFilter(new MockHttpServletRequest("GET", "/orders/1"), new MockHttpServletResponse(),
								(request, response) -> {
									try {
										never.await(60, TimeUnit.SECONDS);
									}
									catch (InterruptedException ex) {
										interrupted.incrementAndGet();
										Thread.currentThread().interrupt();
									}
								});
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
					if (Thread.currentThread().isInterrupted()) {
						leftInterrupted.incrementAndGet();
					}
				}, "deadline-request-" + i);
				requests[i].setDaemon(true);
				requests[i].start();
			}
			for (Thread request : requests) {
				request.join(TimeUnit.SECONDS.toMillis(30));
			}
			assertThat(interrupted.get()).isEqualTo(2);
			assertThat(leftInterrupted.get()).as("threads left with their interrupt set").isZero();
			// Counted by the watch's thread once the interrupt is sent: maybe a moment
			// after the request has ended.
			await("both interrupts counted").atMost(Duration.ofSeconds(10))
				.until(() -> registry.get(StuckRequestsMetricsAutoConfiguration.INTERRUPTS)
					.tag("kind", "lock")
					.functionCounter()
					.count() == 2);
		});
	}

	@Test
	void theGaugeCountsTheRequestsPastTheThresholdThenNone() {
		this.withMetrics.run((context) -> {
			Gauge gauge = context.getBean(MeterRegistry.class)
				.get(StuckRequestsMetricsAutoConfiguration.STUCK_REQUESTS)
				.gauge();
			assertThat(gauge.value()).isZero();
			Filter filter = context.getBean(FilterRegistrationBean.class).getFilter();
			CountDownLatch release = new CountDownLatch(1);
			Thread[] requests = new Thread[2];
			for (int i = 0; i < requests.length; i++) {
				requests[i] = new Thread(() -> {
					try {
						filter.doFilter(new MockHttpServletRequest("GET", "/orders/1"), new MockHttpServletResponse(),
								(request, response) -> awaitQuietly(release));
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}, "held-request-" + i);
				requests[i].setDaemon(true);
				requests[i].start();
			}
			try {
				await("both requests past the 1s threshold").atMost(Duration.ofSeconds(15))
					.until(() -> gauge.value() == 2);
			}
			finally {
				release.countDown();
			}
			for (Thread request : requests) {
				request.join(TimeUnit.SECONDS.toMillis(30));
				assertThat(request.isAlive()).as(request.getName() + " ended").isFalse();
			}
			await("none past the threshold").atMost(Duration.ofSeconds(15)).until(() -> gauge.value() == 0);
			assertThat(context.getBean(StuckRequestsMeters.class).stuck()).isZero();
		});
	}

	@Test
	void withTheWatchOffThereIsNoGauge() {
		this.withMetrics.withPropertyValues("safe-defaults.stuck-requests.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(StuckRequestsMeters.class);
			assertThat(context.getBean(MeterRegistry.class)
				.find(StuckRequestsMetricsAutoConfiguration.STUCK_REQUESTS)
				.meter()).isNull();
		});
	}

	@Test
	void withoutMicrometerTheWatchRunsWithoutAGauge() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(StuckRequestsMeters.class)
				.doesNotHaveBean(MeterBinder.class));
	}

	@Test
	void aNonWebApplicationHasNoGauge() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					StuckRequestsAutoConfiguration.class, StuckRequestsMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(MeterBinder.class));
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
