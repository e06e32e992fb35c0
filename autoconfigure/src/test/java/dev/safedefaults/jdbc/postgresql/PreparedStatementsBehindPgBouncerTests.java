package dev.safedefaults.jdbc.postgresql;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.MachineService;
import dev.safedefaults.jdbc.PoolStartedAtStartup;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import dev.safedefaults.testsupport.Slow;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Issue 23, the pooler trap: pgjdbc's server-side prepared statements through a real
 * PgBouncer (Debian's package, see {@link PgBouncer}) in transaction mode, in front of
 * the PostgreSQL 15 service the project's machines run. First the error itself, with
 * pgjdbc's defaults; then {@code jdbc.prepared-statements-behind-pooler} raised for a
 * Hikari pool that dials PgBouncer, and silent for a direct pool or with
 * {@code prepareThreshold=0}. Each test gets a PgBouncer of its own, so that no server
 * session keeps another test's statements. Without PostgreSQL or PgBouncer: a failure on
 * CI, a {@code SKIPPED:} line elsewhere ({@link MachineService}). Covers
 * {@code PreparedStatementErrors}: at run time, the statements of a Hikari pool that
 * failed with "already exists" (42P05) are counted, through the pool's exception
 * override, in one finding for the pool, next to a count of "does not exist" (26000) that
 * stays 0 (the sequence that fails with 26000 runs without the pool's override); none
 * with {@code prepareThreshold=0}.
 */
@Slow
class PreparedStatementsBehindPgBouncerTests {

	/** pgjdbc's default prepareThreshold: the execution that prepares on the server. */
	private static final int PGJDBC_PREPARE_THRESHOLD = 5;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.username=postgres", "spring.datasource.name=orders",
				"safe-defaults.checks.enabled=false");

	private PgBouncer pgBouncer;

	@BeforeAll
	static void requirePostgreSqlAndPgBouncer() {
		PoolStatusOnPostgreSqlTests.requirePostgreSql();
		PgBouncer.require();
	}

	@BeforeEach
	void startPgBouncer() {
		// One server session: two clients share it, as they would take turns on a
		// larger pool under load.
		this.pgBouncer = PgBouncer.start("transaction", 1);
	}

	@AfterEach
	void stopPgBouncer() {
		this.pgBouncer.close();
	}

	private Connection connect(String url) throws SQLException {
		return DriverManager.getConnection(url, "postgres", "");
	}

	/** Runs the same statement the given number of times, each from a new statement. */
	private static void execute(Connection connection, String sql, int times) throws SQLException {
		for (int i = 1; i <= times; i++) {
			try (PreparedStatement statement = connection.prepareStatement(sql)) {
				statement.setInt(1, i);
				try (ResultSet result = statement.executeQuery()) {
					assertThat(result.next()).isTrue();
					assertThat(result.getInt(1)).as("execution %d's answer", i).isEqualTo(i);
				}
			}
		}
	}

	@Test
	void pgjdbcsDefaultThresholdMakesASecondClientsFifthExecutionFailWithAlreadyExists() throws SQLException {
		try (Connection first = connect(this.pgBouncer.url()); Connection second = connect(this.pgBouncer.url())) {
			execute(first, "SELECT ?::int", PGJDBC_PREPARE_THRESHOLD);
			execute(second, "SELECT ?::int", PGJDBC_PREPARE_THRESHOLD - 1);
			assertThatExceptionOfType(SQLException.class).isThrownBy(() -> execute(second, "SELECT ?::int", 1))
				.satisfies((ex) -> {
					assertThat(ex.getSQLState()).isEqualTo("42P05");
					assertThat(ex.getMessage()).isEqualTo("ERROR: prepared statement \"S_1\" already exists");
				});
		}
	}

	@Test
	void aStatementPreparedOnAServerSessionThatWentAwayFailsInsideATransactionWithDoesNotExist() throws SQLException {
		try (Connection client = connect(this.pgBouncer.url());
				Connection direct = connect(PoolStatusOnPostgreSqlTests.URL)) {
			execute(client, "SELECT ?::int", PGJDBC_PREPARE_THRESHOLD);
			// PgBouncer replaces a server session that ended (server_lifetime,
			// server_idle_timeout, a restart or failover of the server).
			try (Statement statement = client.createStatement();
					ResultSet result = statement.executeQuery("SELECT pg_backend_pid()");
					Statement terminate = direct.createStatement()) {
				assertThat(result.next()).isTrue();
				terminate.execute("SELECT pg_terminate_backend(" + result.getInt(1) + ")");
			}
			// Until PgBouncer has seen the server session end, it may hand the dead one
			// out
			// and answer 08P01 ("server conn crashed?") instead: wait for its log line.
			Awaitility.await()
				.atMost(Duration.ofSeconds(10))
				.until(() -> this.pgBouncer.output()
					.lines()
					.anyMatch((line) -> line.contains(" S-0x") && line.contains("closing because")));
			client.setAutoCommit(false);
			assertThatExceptionOfType(SQLException.class).isThrownBy(() -> execute(client, "SELECT ?::int", 1))
				.satisfies((ex) -> {
					assertThat(ex.getSQLState()).isEqualTo("26000");
					assertThat(ex.getMessage()).isEqualTo("ERROR: prepared statement \"S_1\" does not exist");
				});
			client.rollback();
		}
	}

	@Test
	void theFixTheFindingNamesRunsBothFailingSequencesAndSilencesTheCheck() throws SQLException {
		String fix = check(this.pgBouncer.url()).get(0).fix();
		assertThat(fix).contains("?prepareThreshold=0");
		String url = this.pgBouncer.url() + "?prepareThreshold=0";
		try (Connection first = connect(url); Connection second = connect(url)) {
			// The sequence that failed with 42P05 at the default threshold ...
			execute(first, "SELECT ?::int", 2 * PGJDBC_PREPARE_THRESHOLD);
			execute(second, "SELECT ?::int", 2 * PGJDBC_PREPARE_THRESHOLD);
			// ... and, inside a transaction, the one that failed with 26000.
			second.setAutoCommit(false);
			execute(second, "SELECT ?::int", 2 * PGJDBC_PREPARE_THRESHOLD);
			second.commit();
		}
		assertThat(check(url)).as("the check on a pool given the fix").isEmpty();
	}

	private List<Finding> check(ApplicationContextRunner runner, String url, String... properties) {
		AtomicReference<List<Finding>> findings = new AtomicReference<>();
		runner.withPropertyValues("spring.datasource.url=" + url).withPropertyValues(properties).run((context) -> {
			assertThat(context).hasNotFailed();
			findings.set(context.getBean(PreparedStatementsBehindPoolerCheck.class).run());
		});
		return findings.get();
	}

	private List<Finding> check(String url, String... properties) {
		return check(this.runner, url, properties);
	}

	@Test
	void reportsAHikariPoolThatDialsPgBouncer() {
		List<Finding> findings = check(this.pgBouncer.url());
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo("jdbc.prepared-statements-behind-pooler");
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.subject()).isEqualTo("orders");
			assertThat(finding.message()).contains(
					"it dialled 127.0.0.1:" + this.pgBouncer.port() + ", the server answers on 127.0.0.1:5432",
					"from its execution number 5 on (prepareThreshold=5)", "26000", "42P05");
			assertThat(finding.fix()).contains("?prepareThreshold=0",
					"spring.datasource.hikari.data-source-properties.prepareThreshold=0", "max_prepared_statements");
		});
	}

	@Test
	void warnsOnARunningPoolThroughOneOfItsOwnConnections() {
		List<Finding> findings = check(this.runner.withBean(PoolStartedAtStartup.class),
				this.pgBouncer.url() + "?ApplicationName=orders", "spring.datasource.hikari.maximum-pool-size=2");
		assertThat(findings).singleElement()
			.satisfies((finding) -> assertThat(finding.fix()).contains("&prepareThreshold=0"));
	}

	@Test
	void saysSoWhenPgjdbcPreparesEveryExecution() {
		assertThat(check(this.pgBouncer.url() + "?prepareThreshold=-1")).singleElement()
			.satisfies((finding) -> assertThat(finding.message()).contains("on every execution (prepareThreshold=-1)"));
	}

	@Test
	void staysSilentForAPoolThatDialsPostgreSqlDirectly() {
		assertThat(check(PoolStatusOnPostgreSqlTests.URL)).isEmpty();
	}

	@Test
	void staysSilentBehindAPlainTcpProxyThoughTheDialledAddressIsNotTheServers() throws IOException {
		// A port mapping or a cloud SQL proxy: the server's own login passes through.
		try (ServerSocket proxy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			Thread acceptor = new Thread(() -> forwardEachConnection(proxy), "tcp-proxy");
			acceptor.setDaemon(true);
			acceptor.start();
			assertThat(check("jdbc:postgresql://127.0.0.1:" + proxy.getLocalPort() + "/test")).isEmpty();
		}
	}

	private static void forwardEachConnection(ServerSocket proxy) {
		while (!proxy.isClosed()) {
			try {
				Socket client = proxy.accept();
				Socket server = new Socket("127.0.0.1", 5432);
				pipe(client.getInputStream(), server.getOutputStream(), server);
				pipe(server.getInputStream(), client.getOutputStream(), client);
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private static void pipe(InputStream from, OutputStream to, Socket closeAtEnd) {
		Thread pipe = new Thread(() -> {
			try (closeAtEnd) {
				from.transferTo(to);
			}
			catch (IOException ex) {
				// the other side closed
			}
		}, "tcp-proxy-pipe");
		pipe.setDaemon(true);
		pipe.start();
	}

	@Test
	void staysSilentWithPrepareThresholdZeroInTheUrlOrTheDataSourceProperties() {
		assertThat(check(this.pgBouncer.url() + "?prepareThreshold=0")).as("in the URL").isEmpty();
		assertThat(check(this.pgBouncer.url(), "spring.datasource.hikari.data-source-properties.prepareThreshold=0"))
			.as("as a data-source property")
			.isEmpty();
	}

	@Test
	void staysSilentInTheSimpleQueryMode() {
		assertThat(check(this.pgBouncer.url() + "?preferQueryMode=simple")).isEmpty();
	}

	@Test
	void staysSilentWhenThePoolerCannotBeReachedForTheOtherChecksReportIt() {
		int port = this.pgBouncer.port();
		this.pgBouncer.close();
		assertThat(check("jdbc:postgresql://127.0.0.1:" + port + "/test")).isEmpty();
	}

	/**
	 * The run-time signal: the same two clients as the reproduction, as two connections
	 * of the application's Hikari pool.
	 */
	private List<Finding> runTwoClientsOnThePool(String url, boolean secondFailsWithAlreadyExists) {
		AtomicReference<List<Finding>> findings = new AtomicReference<>();
		this.runner.withPropertyValues("spring.datasource.url=" + url, "spring.datasource.hikari.maximum-pool-size=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DataSource dataSource = context.getBean(DataSource.class);
				try (Connection first = dataSource.getConnection(); Connection second = dataSource.getConnection()) {
					execute(first, "SELECT ?::int", PGJDBC_PREPARE_THRESHOLD);
					if (secondFailsWithAlreadyExists) {
						assertThatExceptionOfType(SQLException.class)
							.isThrownBy(() -> execute(second, "SELECT ?::int", PGJDBC_PREPARE_THRESHOLD))
							.satisfies((ex) -> assertThat(ex.getSQLState()).isEqualTo("42P05"));
					}
					else {
						// Not one 42P05: every execution of the second client succeeds.
						execute(second, "SELECT ?::int", PGJDBC_PREPARE_THRESHOLD);
					}
				}
				findings.set(context.getBean(FindingsStore.class)
					.findings()
					.stream()
					.filter((finding) -> finding.id().equals("jdbc.prepared-statement-errors"))
					.toList());
			});
		return findings.get();
	}

	@Test
	void countsPreparedStatementErrorsOfAHikariPoolAtRunTime() {
		assertThat(runTwoClientsOnThePool(this.pgBouncer.url(), true)).singleElement().satisfies((finding) -> {
			assertThat(finding.severity()).isEqualTo(Severity.WARNING);
			assertThat(finding.subject()).isEqualTo("orders");
			assertThat(finding.message()).contains("0 statements failed with 'prepared statement ... does not exist'",
					"and 1 with 'prepared statement ... already exists' (42P05)");
			assertThat(finding.fix()).contains("?prepareThreshold=0");
		});
	}

	@Test
	void countsNothingWithPrepareThresholdZero() {
		assertThat(runTwoClientsOnThePool(this.pgBouncer.url() + "?prepareThreshold=0", false)).isEmpty();
	}

}
