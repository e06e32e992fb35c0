package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.MachineService;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.mysql.StatementCounters.Counts;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_SELECT;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_STMT_EXECUTE;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_STMT_PREPARE;
import static dev.safedefaults.jdbc.mysql.StatementCounters.QUESTIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The starter's pools on an older MariaDB (10.x) at 127.0.0.1:3306 (root, no password,
 * database {@code test}). Without that server the tests fail where it is required (CI:
 * {@code -Dolder-mariadb.required=true} or the environment variable
 * {@code SAFE_DEFAULTS_CI=true}, which {@code .ci/run} sets) and are skipped elsewhere,
 * with a {@code SKIPPED:} line in the build's output saying what is missing. MariaDB 10.x
 * announces itself as {@code 5.5.5-10.…}, so Connector/J never sends the read-only probe,
 * with or without the starter. The server may be shared, so the counters are the pool's
 * own session's: a pool of one connection, snapshots taken through it.
 */
@Slow
class JdbcDefaultsOnOlderMariaDbTests {

	private static final String HOST = "127.0.0.1";

	private static final int PORT = 3306;

	private static final int UPDATES = 100;

	private static final String TABLE = "safe_defaults_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 12);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.username=root", "spring.datasource.password=",
				"spring.datasource.hikari.maximum-pool-size=1", "spring.datasource.hikari.minimum-idle=1",
				"safe-defaults.checks.enabled=false");

	/**
	 * Makes a missing server a failure instead of a skip (CI sets it, or
	 * {@link MachineService#CI_VARIABLE}).
	 */
	static final String REQUIRED_PROPERTY = "older-mariadb.required";

	@BeforeAll
	static void requireTheServer() throws Exception {
		if (!MachineService.listens(HOST, PORT)) {
			String missing = "no MariaDB at " + HOST + ":" + PORT + " (root, no password, database 'test'): the tests "
					+ "on an older MariaDB need a 10.x server there (CI machines run 10.11; start it with "
					+ "'service mariadb start', or install it with 'apt-get install mariadb-server')";
			MachineService.missing(REQUIRED_PROPERTY, missing);
		}
		try (Connection connection = connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE " + TABLE + " (id INT PRIMARY KEY, n BIGINT NOT NULL)");
			statement.execute("INSERT INTO " + TABLE + " VALUES (1, 0)");
		}
	}

	@AfterAll
	static void dropTheTable() throws Exception {
		if (MachineService.listens(HOST, PORT)) {
			try (Connection connection = connect(); Statement statement = connection.createStatement()) {
				statement.execute("DROP TABLE IF EXISTS " + TABLE);
			}
		}
	}

	private static Connection connect() throws Exception {
		return DriverManager.getConnection("jdbc:mariadb://" + HOST + ":" + PORT + "/test", "root", "");
	}

	private static String url(String scheme) {
		return "jdbc:" + scheme + "://" + HOST + ":" + PORT + "/test";
	}

	private Counts updatesThroughThePool(String url, String... properties) {
		AtomicReference<Counts> counts = new AtomicReference<>();
		this.runner.withPropertyValues("spring.datasource.url=" + url).withPropertyValues(properties).run((context) -> {
			HikariDataSource pool = context.getBean(HikariDataSource.class);
			JdbcDefaultsOnEmbeddedMariaDbTests.fill(pool);
			counts.set(StatementCounters.measureSession(pool::getConnection, () -> {
				for (int i = 0; i < UPDATES; i++) {
					try (Connection connection = pool.getConnection();
							PreparedStatement update = connection
								.prepareStatement("UPDATE " + TABLE + " SET n = n + 1 WHERE id = ?")) {
						update.setInt(1, 1);
						update.execute();
					}
				}
			}));
		});
		return counts.get();
	}

	@Test
	void connectorJSeesAVersionTooOldForTheReadOnlyProbe() throws Exception {
		try (Connection connection = DriverManager.getConnection(url("mysql"), "root", "")) {
			assertThat(connection.getMetaData().getDatabaseProductVersion()).startsWith("5.5.5-10.");
		}
	}

	@Test
	void connectorJWithTheStarterUsesServerPreparesAndNeverProbes() {
		Counts counts = updatesThroughThePool(url("mysql"));
		assertThat(counts.get(COM_SELECT)).as("%s", counts).isZero();
		assertThat(counts.get(QUESTIONS)).as("%s", counts).isEqualTo(UPDATES);
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isEqualTo(1);
		assertThat(counts.get(COM_STMT_EXECUTE)).as("%s", counts).isEqualTo(UPDATES);
	}

	@Test
	void connectorJWithoutTheStarterNeverProbesEither() {
		Counts counts = updatesThroughThePool(url("mysql"), "safe-defaults.jdbc.enabled=false");
		assertThat(counts.get(COM_SELECT)).as("%s", counts).isZero();
		assertThat(counts.get(QUESTIONS)).as("%s", counts).isEqualTo(UPDATES);
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isZero();
	}

	@Test
	void mariaDbWithTheStarterUsesCachedServerPrepares() {
		Counts counts = updatesThroughThePool(url("mariadb"));
		assertThat(counts.get(COM_SELECT)).as("%s", counts).isZero();
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isEqualTo(1);
		assertThat(counts.get(COM_STMT_EXECUTE)).as("%s", counts).isEqualTo(UPDATES);
	}

	@Test
	void theMaxLifetimeCheckReadsTheOlderServersSessionTimeout() throws Exception {
		long serverTimeout;
		try (Connection connection = connect();
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SELECT @@session.wait_timeout")) {
			result.next();
			serverTimeout = result.getLong(1);
		}
		AtomicReference<List<Finding>> findings = new AtomicReference<>();
		this.runner.withPropertyValues("spring.datasource.url=" + url("mysql") + "?sessionVariables=wait_timeout=60")
			.run((context) -> findings.set(context.getBean(MaxLifetimeCheck.class).run()));
		assertThat(findings.get()).singleElement()
			.satisfies((finding) -> assertThat(finding.message()).contains("after 60 s idle"));
		this.runner.withPropertyValues("spring.datasource.url=" + url("mariadb"))
			.run((context) -> findings.set(context.getBean(MaxLifetimeCheck.class).run()));
		// Silent unless the server itself is configured below Hikari's keepalive plus 30
		// s.
		assertThat(findings.get()).hasSize((serverTimeout < 150) ? 1 : 0);
		System.out.println(
				"Older MariaDB: @@session.wait_timeout " + serverTimeout + " s, jdbc.max-lifetime " + findings.get());
	}

}
