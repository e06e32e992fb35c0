package dev.safedefaults.stuckrequests;

import java.net.ProxySelector;
import java.net.URI;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.ClientReadTimeout;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.timeouts.HttpClientTimeoutsAutoConfiguration;
import dev.safedefaults.stuckrequests.hikari.StuckRequestsHikariAutoConfiguration;
import dev.safedefaults.stuckrequests.hosts.DestinationRecorder;
import dev.safedefaults.stuckrequests.hosts.StuckRequestsHostsAutoConfiguration;
import dev.safedefaults.stuckrequests.servlet.StuckRequestsServletAutoConfiguration;
import dev.safedefaults.testsupport.SilentDownstream;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.client.RestClient;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.handler.MappedInterceptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watch's conditions and bound, and the whole path in one context: a request through
 * the filter whose RestClient, built by hand, waits on a downstream that never answers is
 * the finding, with the host and port and the client library, for as long as it waits;
 * then cleared. Covers {@code InFlightRequestsFilter} (the registered filter: a request
 * through it is watched while it runs, and forgotten once it ends),
 * {@code EndpointRecorder} (the registered interceptor notes the handler's pattern on the
 * request's thread), {@code StuckRequestsProperties} (its bound, and a threshold that
 * follows {@code ClientReadTimeout}, the read timeout decided for Boot's clients), the
 * hosts route (the JVM's proxy selector left alone when {@code learn-hosts} is false),
 * {@code StuckRequestsFindings} and {@code WaitGroup} (the finding's subject and
 * message).
 */
class StuckRequestsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				StuckRequestsAutoConfiguration.class, StuckRequestsServletAutoConfiguration.class,
				StuckRequestsHikariAutoConfiguration.class, StuckRequestsHostsAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	@Test
	void aServletApplicationIsWatchedByDefaultWithASixtySecondThreshold() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(StuckRequestsWatch.class).hasSingleBean(FilterRegistrationBean.class);
			assertThat(context.getBean(StuckRequestsWatch.class).isRunning()).isTrue();
			FeatureStatus status = context.getBean(StuckRequestsFeatureStatus.class).status();
			assertThat(status.enabled()).isTrue();
			assertThat(status.shortForm()).isEqualTo("stuck-requests(60s)");
		});
	}

	@Test
	void switchedOffThereIsNoFilterNoWatchTheProxySelectorIsLeftAloneAndTheStatusSaysSo() {
		ProxySelector before = ProxySelector.getDefault();
		this.runner.withPropertyValues("safe-defaults.stuck-requests.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(StuckRequestsWatch.class)
				.doesNotHaveBean(FilterRegistrationBean.class)
				.doesNotHaveBean(DestinationRecorder.class);
			assertThat(ProxySelector.getDefault()).isSameAs(before);
			assertThat(context.getBean(StuckRequestsFeatureStatus.class).status().reason())
				.contains("safe-defaults.stuck-requests.enabled is false");
		});
	}

	@Test
	void aNonWebApplicationGetsNothing() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, StuckRequestsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(StuckRequestsFeatureStatus.class));
	}

	@Test
	void theMasterSwitchRemovesEverything() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(StuckRequestsFeatureStatus.class));
	}

	@Test
	void aThresholdOutOfRangeFailsStartupNamingThePropertyTheValueAndTheRange() {
		for (String threshold : List.of("500ms", "11m")) {
			this.runner.withPropertyValues("safe-defaults.stuck-requests.threshold=" + threshold)
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.rootCause()
					.hasMessageContaining("safe-defaults.stuck-requests.threshold")
					.hasMessageContaining("'" + threshold + "'")
					.hasMessageContaining("from 1s to 10m"));
		}
	}

	@Test
	void aRequestWaitingOnASilentDownstreamIsTheFindingWithItsHostWhileItWaitsAndIsLoggedOnce() throws Exception {
		ProxySelector before = ProxySelector.getDefault();
		try (SilentDownstream silent = new SilentDownstream()) {
			String hostAndPort = URI.create(silent.url()).getAuthority();
			this.runner.withPropertyValues("safe-defaults.stuck-requests.threshold=1s").run((context) -> {
				// Built the way most services build theirs: by hand, after the context
				// started.
				RestClient client = RestClient.builder().baseUrl(silent.url()).build();
				Filter filter = context.getBean(FilterRegistrationBean.class).getFilter();
				HandlerInterceptor endpoints = context.getBean(MappedInterceptor.class).getInterceptor();
				Thread request = new Thread(() -> {
					try {
						filter.doFilter(StuckRequestsWatchTests.ordersRequest(), new MockHttpServletResponse(),
								(req, res) -> {
									// As Spring MVC's DispatcherServlet does once it
									// chose the
									// handler.
									try {
										endpoints.preHandle((HttpServletRequest) req, (HttpServletResponse) res, this);
									}
									catch (Exception ex) {
										throw new IllegalStateException(ex);
									}
									client.get().uri("/prices/1").retrieve().body(String.class);
								});
					}
					catch (Exception ex) {
						// The downstream answered 503 at the end of the test.
					}
				}, "stuck-request");
				request.setDaemon(true);
				request.start();
				FindingsStore store = context.getBean(FindingsStore.class);
				await("the stuck request's finding").atMost(Duration.ofSeconds(15))
					.until(() -> !store.findings().isEmpty());
				Finding finding = store.findings().get(0);
				assertThat(finding.id()).isEqualTo("stuck-requests.waiting");
				assertThat(finding.subject())
					.startsWith("HTTP response: " + hostAndPort + " (JDK HttpClient via RestClient) at "
							+ StuckRequestsAutoConfigurationTests.class.getName() + ".lambda$");
				assertThat(finding.message()).startsWith("1 request running longer than 1s waits for an HTTP response "
						+ "from " + hostAndPort + " (JDK HttpClient via RestClient), at "
						+ StuckRequestsAutoConfigurationTests.class.getName() + ".lambda$");
				assertThat(finding.message()).contains("(GET /orders/{id})")
					.as("what ends such a wait, as HandBuiltClientSilenceProbe measured it")
					.contains("Only the downstream or a read timeout longer than that ends the wait")
					.contains("Apache HttpClient 5 gives up after 3 minutes of silence");
				assertThat(finding.fix()).contains("RestClient.Builder");
				assertThat(context.getBean(StuckRequestsWatch.class).stuck()).isOne();
				silent.answerEveryCall();
				request.join(TimeUnit.SECONDS.toMillis(30));
				assertThat(request.isAlive()).as("request freed; at %s", List.of(request.getStackTrace())).isFalse();
				await("the finding cleared").atMost(Duration.ofSeconds(30)).until(() -> store.findings().isEmpty());
				assertThat(context.getBean(StuckRequestsFeatureStatus.class).status().reason())
					.contains("no request past the threshold now; last: 1 request at most");
			});
		}
		assertThat(ProxySelector.getDefault()).as("the JVM's proxy selector put back").isSameAs(before);
	}

	@Test
	void aPoolDrainedByRequestsWaitingOnHttpIsNamedWithWhatItsHoldersWaitOn() throws Exception {
		try (SilentDownstream silent = new SilentDownstream()) {
			String hostAndPort = URI.create(silent.url()).getAuthority();
			this.runner.withPropertyValues("safe-defaults.stuck-requests.threshold=2s")
				.withBean(DataSource.class, StuckRequestsAutoConfigurationTests::twoConnectionPool)
				.run((context) -> {
					RestClient client = RestClient.builder().baseUrl(silent.url()).build();
					DataSource dataSource = context.getBean(DataSource.class);
					// Started first: a loaded machine may take longer than the
					// threshold to start the pool, and a request is examined once.
					dataSource.getConnection().close();
					Filter filter = context.getBean(FilterRegistrationBean.class).getFilter();
					// Two requests hold a connection across a remote call, as
					// open-in-view
					// does; the third waits for a connection.
					List<Thread> requests = new ArrayList<>();
					for (int i = 0; i < 2; i++) {
						requests.add(request(filter, "/orders/" + i, () -> {
							try (Connection connection = dataSource.getConnection()) {
								client.get().uri("/prices/1").retrieve().body(String.class);
							}
						}));
					}
					await("both connections taken").atMost(Duration.ofSeconds(15)).until(() -> silent.accepted() == 2);
					requests.add(request(filter, "/health", () -> dataSource.getConnection().close()));
					FindingsStore store = context.getBean(FindingsStore.class);
					await("both waits named").atMost(Duration.ofSeconds(30))
						.untilAsserted(() -> assertThat(store.findings()).as("findings")
							.hasSize(2)
							.anySatisfy((finding) -> assertThat(finding.message()).contains("waiting for one")));
					Finding pool = store.findings()
						.stream()
						.filter((finding) -> finding.subject().startsWith("pool connection"))
						.findFirst()
						.orElseThrow();
					assertThat(pool.subject()).startsWith("pool connection: TwoConnections at ");
					assertThat(pool.message())
						.startsWith("1 request running longer than 2s waits for a connection from TwoConnections")
						.contains("TwoConnections: 2 of 2 connections in use, 1 thread waiting for one")
						.contains("; its connections are probably held by the other requests past the threshold, "
								+ "which wait: 2 on HTTP response: " + hostAndPort
								+ " (JDK HttpClient via RestClient) at ");
					assertThat(pool.fix()).contains("spring.jpa.open-in-view=false");
					silent.answerEveryCall();
					for (Thread request : requests) {
						request.join(TimeUnit.SECONDS.toMillis(30));
						assertThat(request.isAlive())
							.as("%s freed; at %s", request.getName(), List.of(request.getStackTrace()))
							.isFalse();
					}
					await("the findings cleared").atMost(Duration.ofSeconds(30))
						.until(() -> store.findings().isEmpty());
				});
		}
	}

	@Test
	void withoutLearningHostsTheProxySelectorIsLeftAloneAndTheStatusSaysSo() {
		ProxySelector before = ProxySelector.getDefault();
		this.runner.withPropertyValues("safe-defaults.stuck-requests.learn-hosts=false").run((context) -> {
			assertThat(context).hasSingleBean(StuckRequestsWatch.class).doesNotHaveBean(DestinationRecorder.class);
			assertThat(ProxySelector.getDefault()).isSameAs(before);
			assertThat(context.getBean(StuckRequestsFeatureStatus.class).status().appliedTo())
				.contains("hosts called are not learnt: safe-defaults.stuck-requests.learn-hosts is false, the "
						+ "JVM's proxy selector is left alone");
		});
	}

	@Test
	void theThresholdFollowsTheReadTimeoutDecidedForBootsClientsUnlessSet() {
		WebApplicationContextRunner withBootsClients = new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, StuckRequestsAutoConfiguration.class,
							HttpClientTimeoutsAutoConfiguration.class, HttpClientAutoConfiguration.class))
			.withPropertyValues("safe-defaults.checks.enabled=false");
		withBootsClients.withPropertyValues("spring.http.clients.read-timeout=2m")
			.run((context) -> assertThat(context.getBean(StuckRequestsWatch.class).threshold())
				.isEqualTo(Duration.ofMinutes(2)));
		withBootsClients.withPropertyValues("safe-defaults.http-client-timeouts.read=30s")
			.run((context) -> assertThat(context.getBean(StuckRequestsWatch.class).threshold())
				.isEqualTo(Duration.ofSeconds(30)));
		withBootsClients.run((context) -> assertThat(context.getBean(StuckRequestsWatch.class).threshold())
			.as("the starter's read timeout, written once")
			.isEqualTo(ClientReadTimeout.STARTER_DEFAULT));
		withBootsClients
			.withPropertyValues("spring.http.clients.read-timeout=2m", "safe-defaults.stuck-requests.threshold=10s")
			.run((context) -> assertThat(context.getBean(StuckRequestsWatch.class).threshold())
				.isEqualTo(Duration.ofSeconds(10)));
		withBootsClients.withPropertyValues("spring.http.clients.read-timeout=200ms")
			.run((context) -> assertThat(context.getBean(StuckRequestsWatch.class).threshold())
				.as("kept within the threshold's range")
				.isEqualTo(Duration.ofSeconds(1)));
	}

	private static HikariDataSource twoConnectionPool() {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl("jdbc:h2:mem:two-connections");
		pool.setPoolName("TwoConnections");
		pool.setMaximumPoolSize(2);
		pool.setConnectionTimeout(Duration.ofMinutes(1).toMillis());
		return pool;
	}

	private static Thread request(Filter filter, String path, ThrowingRunnable work) {
		Thread thread = new Thread(() -> {
			try {
				filter.doFilter(new MockHttpServletRequest("GET", path), new MockHttpServletResponse(), (req, res) -> {
					try {
						work.run();
					}
					catch (Exception ex) {
						// The downstream answered 503 at the end of the test.
					}
				});
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, "request " + path);
		thread.setDaemon(true);
		thread.start();
		return thread;
	}

	interface ThrowingRunnable {

		void run() throws Exception;

	}

}
