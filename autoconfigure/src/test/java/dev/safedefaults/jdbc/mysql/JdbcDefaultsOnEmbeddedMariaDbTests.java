package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFeatureStatus;
import dev.safedefaults.jdbc.PoolServerVariables;
import dev.safedefaults.jdbc.mysql.StatementCounters.Counts;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_SELECT;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_STMT_EXECUTE;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_STMT_PREPARE;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_UPDATE;
import static dev.safedefaults.jdbc.mysql.StatementCounters.QUESTIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The starter's pools on a real server: an embedded MariaDB 11.4 of this class's own, so
 * that its global counters count this class's statements only. MariaDB 11.4 reports its
 * own version, so Connector/J takes the path of incident 5: before each update sent with
 * {@code execute()} it asks {@code select @@session.transaction_read_only}.
 * <p>
 * Each measurement fills the pool first ({@code minimumIdle} = {@code maximumPoolSize},
 * then waits until every connection exists: Hikari's fill sends statements of its own),
 * and subtracts what its own snapshots add.
 */
@Slow
class JdbcDefaultsOnEmbeddedMariaDbTests {

	private static final int UPDATES = 200;

	private static final int POOL_SIZE = 2;

	private static final String UPDATE = "UPDATE counters SET n = n + 1 WHERE id = ?";

	private static EmbeddedMariaDb server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.username=root", "spring.datasource.password=",
				"spring.datasource.hikari.maximum-pool-size=" + POOL_SIZE,
				"spring.datasource.hikari.minimum-idle=" + POOL_SIZE, "safe-defaults.checks.enabled=false");

	@BeforeAll
	static void startServer() throws Exception {
		server = EmbeddedMariaDb.start();
		try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE counters (id INT PRIMARY KEY, n BIGINT NOT NULL)");
			statement.execute("INSERT INTO counters VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)");
		}
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	/**
	 * Sends {@link #UPDATES} updates with {@code PreparedStatement.execute()} (as MyBatis
	 * does), each on a connection borrowed from the pool, and measures the server's
	 * counters around them.
	 */
	private Counts updatesThroughThePool(String url, String... properties) {
		AtomicReference<Counts> counts = new AtomicReference<>();
		this.runner.withPropertyValues("spring.datasource.url=" + url).withPropertyValues(properties).run((context) -> {
			HikariDataSource pool = context.getBean(HikariDataSource.class);
			fill(pool);
			try (Connection observer = server.connect()) {
				counts.set(StatementCounters.measureGlobal(observer, () -> {
					for (int i = 0; i < UPDATES; i++) {
						try (Connection connection = pool.getConnection();
								PreparedStatement update = connection.prepareStatement(UPDATE)) {
							update.setInt(1, i % 5 + 1);
							update.execute();
						}
					}
				}));
			}
		});
		return counts.get();
	}

	static void fill(HikariDataSource pool) throws Exception {
		try (Connection connection = pool.getConnection()) {
			// starts the pool
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> pool.getHikariPoolMXBean().getTotalConnections() == pool.getMaximumPoolSize()
					&& pool.getHikariPoolMXBean().getIdleConnections() == pool.getMaximumPoolSize());
	}

	@Test
	void connectorJSeesAServerRecentEnoughForTheReadOnlyProbe() throws Exception {
		try (Connection connection = DriverManager.getConnection(server.url("mysql", ""), "root", "")) {
			assertThat(connection.getMetaData().getDriverName()).contains("MySQL Connector/J");
			assertThat(connection.getMetaData().getDatabaseMajorVersion()).isGreaterThanOrEqualTo(11);
		}
	}

	@Test
	void connectorJWithTheStarterSendsOneStatementPerUpdateAndPreparesOncePerConnection() {
		Counts counts = updatesThroughThePool(server.url("mysql", ""));
		assertThat(counts.get(QUESTIONS)).as("%s", counts).isEqualTo(UPDATES);
		assertThat(counts.get(COM_SELECT)).as("read-only probes: %s", counts).isZero();
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isBetween(1L, (long) POOL_SIZE);
		assertThat(counts.get(COM_STMT_EXECUTE)).as("%s", counts).isEqualTo(UPDATES);
	}

	@Test
	void connectorJWithoutTheStarterProbesTheReadOnlyStateBeforeEveryUpdate() {
		Counts counts = updatesThroughThePool(server.url("mysql", ""), "safe-defaults.jdbc.enabled=false");
		assertThat(counts.get(COM_SELECT)).as("read-only probes: %s", counts).isEqualTo(UPDATES);
		assertThat(counts.get(QUESTIONS)).as("%s", counts).isEqualTo(2L * UPDATES);
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isZero();
	}

	@Test
	void mariaDbWithTheStarterUsesCachedServerPrepares() {
		Counts counts = updatesThroughThePool(server.url("mariadb", ""));
		assertThat(counts.get(QUESTIONS)).as("%s", counts).isEqualTo(UPDATES);
		assertThat(counts.get(COM_SELECT)).as("%s", counts).isZero();
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isBetween(1L, (long) POOL_SIZE);
		assertThat(counts.get(COM_STMT_EXECUTE)).as("%s", counts).isEqualTo(UPDATES);
	}

	@Test
	void mariaDbWithoutTheStarterSendsEveryUpdateAsText() {
		Counts counts = updatesThroughThePool(server.url("mariadb", ""), "safe-defaults.jdbc.enabled=false");
		assertThat(counts.get(QUESTIONS)).as("%s", counts).isEqualTo(UPDATES);
		assertThat(counts.get(COM_UPDATE)).as("%s", counts).isEqualTo(UPDATES);
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isZero();
		assertThat(counts.get(COM_STMT_EXECUTE)).as("%s", counts).isZero();
	}

	@Test
	void aKeyTheUserSetInTheUrlWinsOnTheWire() {
		Counts counts = updatesThroughThePool(server.url("mysql", "useServerPrepStmts=false"));
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isZero();
		assertThat(counts.get(COM_STMT_EXECUTE)).as("%s", counts).isZero();
		assertThat(counts.get(COM_SELECT)).as("maxPerformance still applies: %s", counts).isZero();
	}

	@Test
	void aKeyTheUserSetInTheDataSourcePropertiesWinsOnTheWire() {
		Counts counts = updatesThroughThePool(server.url("mysql", ""),
				"spring.datasource.hikari.data-source-properties.useServerPrepStmts=false");
		assertThat(counts.get(COM_STMT_PREPARE)).as("%s", counts).isZero();
		assertThat(counts.get(COM_STMT_EXECUTE)).as("%s", counts).isZero();
	}

	@Test
	void aKeyTheUserSetWinsOnTheWireWithMariaDb() {
		Counts fromUrl = updatesThroughThePool(server.url("mariadb", "useServerPrepStmts=false"));
		assertThat(fromUrl.get(COM_STMT_PREPARE)).as("%s", fromUrl).isZero();
		Counts fromProperties = updatesThroughThePool(server.url("mariadb", ""),
				"spring.datasource.hikari.data-source-properties.useServerPrepStmts=false");
		assertThat(fromProperties.get(COM_STMT_PREPARE)).as("%s", fromProperties).isZero();
	}

	@Test
	void aQueryTimeoutStillCancelsASlowQueryWithTheStartersConnectorJSettings() {
		assertQueryTimeoutCancels(server.url("mysql", ""));
	}

	@Test
	void aQueryTimeoutStillCancelsASlowQueryWithTheStartersMariaDbSettings() {
		assertQueryTimeoutCancels(server.url("mariadb", ""));
	}

	private void assertQueryTimeoutCancels(String url) {
		this.runner.withPropertyValues("spring.datasource.url=" + url).run((context) -> {
			try (Connection connection = context.getBean(HikariDataSource.class).getConnection();
					Statement statement = connection.createStatement()) {
				statement.setQueryTimeout(1);
				assertThatExceptionOfType(SQLTimeoutException.class)
					.isThrownBy(() -> statement.executeQuery("SELECT SLEEP(3)"));
			}
		});
	}

	@Test
	void maxPerformanceAloneWouldSilentlyIgnoreTheQueryTimeout() {
		// Why the starter adds enableQueryTimeouts=true next to
		// useConfigs=maxPerformance.
		this.runner
			.withPropertyValues("spring.datasource.url=" + server.url("mysql", "useConfigs=maxPerformance"),
					"safe-defaults.jdbc.enabled=false")
			.run((context) -> {
				try (Connection connection = context.getBean(HikariDataSource.class).getConnection();
						Statement statement = connection.createStatement()) {
					statement.setQueryTimeout(1);
					try (ResultSet result = statement.executeQuery("SELECT SLEEP(2)")) {
						assertThat(result.next()).isTrue();
						assertThat(result.getInt(1)).as("SLEEP ran to its end").isZero();
					}
				}
			});
	}

	@Test
	void aPoolStartedBeforeThePostProcessorIsLeftAlone() {
		this.runner.withUserConfiguration(StartedPoolConfiguration.class).run((context) -> {
			HikariDataSource pool = context.getBean(HikariDataSource.class);
			assertThat(pool.getDataSourceProperties()).isEmpty();
			assertThat(context.getBean(JdbcFeatureStatus.class).status().reason()).contains("left alone",
					"started before safe-defaults could configure it");
		});
	}

	@Test
	void theBudgetCheckReadsTheServerAndStaysSilentOnTheDefaults() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + server.url("mysql", ""),
					"spring.datasource.hikari.maximum-pool-size=10")
			.run((context) -> {
				assertThat(new PoolServerVariables()
					.read(context.getBean(HikariDataSource.class), MySqlServerVariables.QUERY)
					.maxPreparedStmtCount()).isEqualTo(16_382);
				assertThat(context.getBean(PreparedStatementBudgetCheck.class).run()).isEmpty();
				assertThat(context.getBean(HikariDataSource.class).getHikariPoolMXBean())
					.as("the check never touches the pool")
					.isNull();
			});
	}

	@Test
	void theBudgetCheckRunsAfterStartupAndWarnsWhenTheInstancesWouldExhaustTheServer() {
		// 10 connections x 250 statements x 4 instances = 10,000 > 16,382 / 2.
		this.runner
			.withPropertyValues("spring.datasource.url=" + server.url("mysql", ""), "spring.datasource.name=orders",
					"spring.datasource.hikari.maximum-pool-size=10", "safe-defaults.jdbc.expected-instances=4",
					"safe-defaults.checks.enabled=true")
			.run((context) -> await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(budgetFindings(context.getBean(FindingsStore.class))).singleElement()
					.satisfies((finding) -> {
						assertThat(finding.severity()).isEqualTo(Severity.WARNING);
						assertThat(finding.subject()).isEqualTo("orders");
						assertThat(finding.message()).contains("10 connections x prepStmtCacheSize 250 x 4 instance(s)",
								"16382");
					})));
	}

	@Test
	void theBudgetCheckSaysItWasNotCheckedAsInfoWhenTheServerCannotBeReached() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + JdbcDefaultsAutoConfigurationTests.MYSQL_URL,
					"spring.datasource.password=s3cr3t", "safe-defaults.checks.enabled=true")
			.run((context) -> await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(context.getBean(FindingsStore.class).findings())
					.filteredOn(
							(finding) -> finding.id().equals(MySqlProtocolFindings.PREPARED_STMT_BUDGET_UNCHECKED.id()))
					.singleElement()
					.satisfies((finding) -> {
						assertThat(finding.severity()).isEqualTo(Severity.INFO);
						assertThat(finding.message()).contains("Could not read @@max_prepared_stmt_count")
							.doesNotContain("s3cr3t");
					})));
	}

	private static List<Finding> budgetFindings(FindingsStore store) {
		return store.findings()
			.stream()
			.filter((finding) -> finding.id().equals(MySqlProtocolFindings.PREPARED_STMT_BUDGET.id()))
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	static class StartedPoolConfiguration {

		@Bean(destroyMethod = "close")
		HikariDataSource startedPool() {
			HikariConfig config = new HikariConfig();
			config.setJdbcUrl(server.url("mysql", ""));
			config.setUsername("root");
			config.setPassword("");
			config.setMaximumPoolSize(1);
			// This constructor starts the pool and seals its configuration.
			return new HikariDataSource(config);
		}

	}

}
