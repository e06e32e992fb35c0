package dev.safedefaults.jdbc.mysql;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.CheckRun.Status;
import dev.safedefaults.check.CheckRun;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.check.StartupCheckRunner;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.PoolServerVariables;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code jdbc.max-lifetime} reads the {@code wait_timeout} the pool's own sessions get,
 * on a real server: an embedded MariaDB 11.4 (server default 28,800 s), lowered per
 * session with {@code sessionVariables} in the URL or in the data-source properties, as a
 * proxy or a hand-tuned server would have it lower.
 */
@Slow
class MaxLifetimeOnEmbeddedMariaDbTests {

	private static EmbeddedMariaDb server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.username=root", "spring.datasource.password=",
				"spring.datasource.name=orders", "safe-defaults.checks.enabled=false");

	@BeforeAll
	static void startServer() {
		server = EmbeddedMariaDb.start();
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	private List<Finding> check(String url, String... properties) {
		AtomicReference<List<Finding>> findings = new AtomicReference<>();
		this.runner.withPropertyValues("spring.datasource.url=" + url)
			.withPropertyValues(properties)
			.run((context) -> findings.set(context.getBean(MaxLifetimeCheck.class).run()));
		return findings.get();
	}

	@Test
	void warnsWhenTheSessionsTimeoutFromTheUrlIsShorterThanHikarisDefaults() {
		List<Finding> findings = check(server.url("mysql", "sessionVariables=wait_timeout=60"));
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.severity()).isEqualTo(Severity.WARNING);
			assertThat(finding.message()).contains("after 60 s idle", "maxLifetime=1800s", "keepaliveTime=120s");
			assertThat(finding.fix()).contains("spring.datasource.hikari.max-lifetime=30000 ",
					"spring.datasource.hikari.keepalive-time=30000 ");
		});
	}

	@Test
	void staysSilentWithTheServersDefaultTimeout() {
		assertThat(check(server.url("mysql", ""))).isEmpty();
		assertThat(check(server.url("mariadb", ""))).isEmpty();
	}

	@Test
	void readsSessionVariablesFromTheDataSourcePropertiesWithMariaDbConnectorJ() {
		String url = server.url("mariadb", "");
		String sessionVariables = "spring.datasource.hikari.data-source-properties.sessionVariables=wait_timeout=100";
		assertThat(check(url, sessionVariables, "spring.datasource.hikari.keepalive-time=90000")).singleElement()
			.satisfies((finding) -> assertThat(finding.fix()).contains("max-lifetime=70000 "));
		assertThat(check(url, sessionVariables, "spring.datasource.hikari.keepalive-time=60000")).isEmpty();
		assertThat(check(url, sessionVariables, "spring.datasource.hikari.keepalive-time=0",
				"spring.datasource.hikari.max-lifetime=70000"))
			.isEmpty();
	}

	@Test
	void readsWhatTheConnectionInitSqlSets() {
		assertThat(check(server.url("mysql", ""),
				"spring.datasource.hikari.connection-init-sql=SET SESSION wait_timeout=90"))
			.singleElement()
			.satisfies((finding) -> assertThat(finding.message()).contains("after 90 s idle"));
	}

	@Test
	void anUnreachableServerIsReportedAsInfoWithTheTimeoutItWaited() {
		List<Finding> findings = check("jdbc:mysql://127.0.0.1:1/app");
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo(JdbcFindings.MAX_LIFETIME_UNCHECKED.id());
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.message()).contains("Could not read the sessions' wait_timeout",
					"within " + PoolServerVariables.TIMEOUT_SECONDS + "s", "CommunicationsException");
		});
	}

	@Test
	void runsAfterStartupThroughTheCheckRunnerWithoutTouchingThePool() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + server.url("mysql", "sessionVariables=wait_timeout=60"),
					"safe-defaults.checks.enabled=true")
			.run((context) -> {
				await().atMost(Duration.ofSeconds(20))
					.untilAsserted(
							() -> assertThat(maxLifetimeFindings(context.getBean(FindingsStore.class))).singleElement()
								.satisfies((finding) -> assertThat(finding.severity()).isEqualTo(Severity.WARNING)));
				assertThat(context.getBean(HikariDataSource.class).getHikariPoolMXBean())
					.as("the check never touches the pool")
					.isNull();
			});
	}

	@Test
	void isSilencedByItsId() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + server.url("mysql", "sessionVariables=wait_timeout=60"),
					"safe-defaults.checks.enabled=true",
					"safe-defaults.checks.disabled=" + JdbcFindings.MAX_LIFETIME.id())
			.run((context) -> {
				StartupCheckRunner checks = context.getBean(StartupCheckRunner.class);
				// Waits for the deferred run to finish, however long a loaded machine
				// takes.
				await().atMost(Duration.ofSeconds(60)).until(() -> maxLifetimeRun(checks).status() != Status.RUNNING);
				assertThat(maxLifetimeRun(checks).status()).as("the deferred check ran").isEqualTo(Status.DONE);
				assertThat(context.getBean(MaxLifetimeCheck.class).run())
					.as("what it found on this pool (positive control)")
					.singleElement()
					.satisfies((finding) -> assertThat(finding.id()).isEqualTo(JdbcFindings.MAX_LIFETIME.id()));
				FindingsStore store = context.getBean(FindingsStore.class);
				assertThat(maxLifetimeFindings(store)).as("published after silencing").isEmpty();
				assertThat(maxLifetimeRun(checks).findings()).isZero();
				assertThat(store.isSilenced(JdbcFindings.MAX_LIFETIME.id())).isTrue();
			});
	}

	private static CheckRun maxLifetimeRun(StartupCheckRunner checks) {
		return checks.getRuns()
			.stream()
			.filter((run) -> run.name().equals(JdbcFindings.MAX_LIFETIME.id()))
			.findFirst()
			.orElseThrow();
	}

	private static List<Finding> maxLifetimeFindings(FindingsStore store) {
		return store.findings()
			.stream()
			.filter((finding) -> finding.id().equals(JdbcFindings.MAX_LIFETIME.id()))
			.toList();
	}

}
