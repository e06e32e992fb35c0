package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceInitializationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Issue 34, measured on an embedded MariaDB 11.4 through the starter's pools: what
 * {@code socketTimeout} does on a MySQL-protocol pool, and what it would break as a
 * default. A database that stops answering in the middle of a query is a
 * {@link FreezingTcpProxy}: the query reaches the server, its answer never comes back,
 * nothing is closed. Why the starter reports {@code jdbc.no-timeouts} and sets no
 * default: docs/jdbc.md#timeouts.
 */
@Slow
class SocketTimeoutOnEmbeddedMariaDbTests {

	/**
	 * How long a thread said to wait for ever is watched waiting: three times the socket
	 * timeout that, in the positive control, frees it.
	 */
	private static final Duration HELD = Duration.ofSeconds(3);

	/**
	 * How long the positive control may take to free the thread: the 1 s socket timeout
	 * plus room for a loaded 2-core machine (seen: more than 3 s from the freeze to the
	 * failure while two builds ran). A thread without the timeout is never freed.
	 */
	private static final Duration FREED_WITHIN = Duration.ofSeconds(10);

	private static final String SOCKET_TIMEOUT = "socketTimeout=1000";

	private static final String MIGRATION = "classpath:jdbc/add-note-to-orders.sql";

	private static EmbeddedMariaDb server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.username=root", "spring.datasource.password=",
				"spring.datasource.hikari.maximum-pool-size=1", "safe-defaults.checks.enabled=false");

	@BeforeAll
	static void startServer() throws SQLException {
		server = EmbeddedMariaDb.start();
		try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE orders (id INT PRIMARY KEY)");
		}
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	@BeforeEach
	void noMigrationYet() throws SQLException {
		try (Connection connection = observer(); Statement statement = connection.createStatement()) {
			statement.execute("ALTER TABLE safedefaults.orders DROP COLUMN IF EXISTS note");
		}
	}

	private static String url(String scheme, int port, String parameters) {
		return "jdbc:" + scheme + "://127.0.0.1:" + port + "/" + EmbeddedMariaDb.DEFAULT_DATABASE
				+ (parameters.isEmpty() ? "" : "?" + parameters);
	}

	/**
	 * A connection that names no schema: {@link EmbeddedMariaDb#connect()} asks for
	 * {@code createDatabaseIfNotExist}, whose {@code CREATE DATABASE} queues behind a
	 * migration that waits for a lock.
	 */
	private static Connection observer() throws SQLException {
		return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + server.port() + "/", "root", "");
	}

	/**
	 * Runs one query through the pool, on a thread of its own, after the database stopped
	 * answering: the pool has checked its connection with a first query, then the proxy
	 * freezes.
	 * @param queryTimeoutSeconds JdbcTemplate's query timeout, 0 for none
	 * @param pool set to the pool once it runs
	 * @return the query, completed only when it returns or fails
	 */
	private CompletableFuture<Integer> queryAfterTheDatabaseStopsAnswering(String scheme, String parameters,
			int queryTimeoutSeconds, FreezingTcpProxy proxy, AtomicReference<HikariDataSource> pool) throws Exception {
		CompletableFuture<Integer> query = new CompletableFuture<>();
		CompletableFuture<Void> frozen = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				this.runner.withPropertyValues("spring.datasource.url=" + url(scheme, proxy.port(), parameters))
					.run((context) -> {
						pool.set(context.getBean(HikariDataSource.class));
						JdbcTemplate jdbc = new JdbcTemplate(pool.get());
						jdbc.setQueryTimeout(queryTimeoutSeconds);
						assertThat(jdbc.queryForObject("SELECT 1", Integer.class)).isEqualTo(1);
						proxy.freeze();
						frozen.complete(null);
						try {
							query.complete(jdbc.queryForObject("SELECT 2", Integer.class));
						}
						catch (RuntimeException ex) {
							// Freed from the query now: the context's close that follows
							// waits for Hikari's shutdown, which closes the connection
							// through the silent database (seen: over 10 s).
							query.completeExceptionally(ex);
						}
					});
			}
			catch (Throwable ex) {
				frozen.completeExceptionally(ex);
				query.completeExceptionally(ex);
			}
		}, "query-on-a-silent-database");
		thread.setDaemon(true);
		thread.start();
		// The pool answered before the freeze: what follows is the silent database's
		// doing.
		frozen.get(30, TimeUnit.SECONDS);
		return query;
	}

	@ParameterizedTest
	@CsvSource({ "mysql, '', 0", "mariadb, '', 0", "mysql, '', 1", "mariadb, '', 1",
			"mysql, queryTimeoutKillsConnection=true, 1" })
	void withoutASocketTimeoutAQueryOnADatabaseThatStoppedAnsweringHoldsItsThreadEvenWithAQueryTimeout(String scheme,
			String parameters, int queryTimeoutSeconds) throws Exception {
		try (FreezingTcpProxy proxy = new FreezingTcpProxy(server.port())) {
			CompletableFuture<Integer> query = queryAfterTheDatabaseStopsAnswering(scheme, parameters,
					queryTimeoutSeconds, proxy, new AtomicReference<>());
			// Three times the query timeout: the driver cancels through the same silent
			// database (Connector/J's KILL QUERY on a new connection that is never
			// answered; MariaDB's max_statement_time on the server), so nothing frees it.
			assertThatExceptionOfType(TimeoutException.class)
				.isThrownBy(() -> query.get(HELD.toMillis(), TimeUnit.MILLISECONDS));
			proxy.close();
			// Only closing the connections frees it.
			await().atMost(Duration.ofSeconds(30)).until(query::isDone);
		}
	}

	@ParameterizedTest
	@CsvSource({ "mysql, 08S01, com.mysql.cj.jdbc.exceptions.CommunicationsException",
			"mariadb, 08000, java.sql.SQLNonTransientConnectionException" })
	void withASocketTimeoutTheThreadIsFreedAndHikariReplacesTheConnection(String scheme, String sqlState,
			String exception) throws Exception {
		try (FreezingTcpProxy proxy = new FreezingTcpProxy(server.port())) {
			AtomicReference<HikariDataSource> pool = new AtomicReference<>();
			long start = System.nanoTime();
			CompletableFuture<Integer> query = queryAfterTheDatabaseStopsAnswering(scheme, SOCKET_TIMEOUT, 0, proxy,
					pool);
			Throwable failure = catchThrowable(() -> query.get(FREED_WITHIN.toMillis(), TimeUnit.MILLISECONDS));
			assertThat(failure).as("freed within %s", FREED_WITHIN).isInstanceOf(ExecutionException.class);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
			SQLException sql = (SQLException) failure.getCause().getCause();
			assertThat(sql.getClass().getName()).isEqualTo(exception);
			assertThat(sql.getSQLState()).isEqualTo(sqlState);
			assertThat(rootCause(sql)).isInstanceOf(java.net.SocketTimeoutException.class);
			// Hikari evicts a connection that failed with a 08 SQLState.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> pool.get().getHikariPoolMXBean().getTotalConnections() == 0);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "mysql", "mariadb" })
	void aSocketTimeoutShorterThanALegitimateQueryFailsItWhileTheServerRunsItOn(String scheme) {
		this.runner.withPropertyValues("spring.datasource.url=" + url(scheme, server.port(), SOCKET_TIMEOUT))
			.run((context) -> {
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(HikariDataSource.class));
				long session = jdbc.queryForObject("SELECT CONNECTION_ID()", Long.class);
				Throwable failure = catchThrowable(() -> jdbc.queryForObject("SELECT SLEEP(3)", Integer.class));
				assertThat(rootCause(failure)).isInstanceOf(java.net.SocketTimeoutException.class);
				// The application gave up; the server has not: the query still runs
				// there.
				assertThat(serverQuery(session)).isEqualTo("SELECT SLEEP(3)");
				assertThat(jdbc.queryForObject("SELECT CONNECTION_ID()", Long.class)).as("a new connection")
					.isNotEqualTo(session);
			});
	}

	@Test
	void aSocketTimeoutShorterThanAMigrationWaitingForALockFailsTheApplicationsStart() throws Exception {
		try (Connection lockHolder = server.connect(); Statement statement = lockHolder.createStatement()) {
			holdTheOrdersTable(lockHolder, statement);
			CompletableFuture<Throwable> start = startMigrating(SOCKET_TIMEOUT);
			Throwable failure = start.get(30, TimeUnit.SECONDS);
			assertThat(failure).as("start").isNotNull();
			assertThat(rootCause(failure)).isInstanceOf(java.net.SocketTimeoutException.class);
			// The server notices the closed connection on its own time.
			await("the server dropped the waiting ALTER with its client").atMost(Duration.ofSeconds(10))
				.until(() -> !alterWaiting());
			lockHolder.commit();
			assertThat(hasNote()).isFalse();
		}
	}

	@Test
	void withoutASocketTimeoutTheSameMigrationWaitsForTheLockAndTheApplicationStarts() throws Exception {
		try (Connection lockHolder = server.connect(); Statement statement = lockHolder.createStatement()) {
			holdTheOrdersTable(lockHolder, statement);
			CompletableFuture<Throwable> start = startMigrating("");
			await().atMost(Duration.ofSeconds(30)).until(SocketTimeoutOnEmbeddedMariaDbTests::alterWaiting);
			assertThat(start).isNotDone();
			lockHolder.commit();
			assertThat(start.get(30, TimeUnit.SECONDS)).as("start").isNull();
			assertThat(hasNote()).isTrue();
		}
	}

	/** A transaction that has read the table holds its metadata lock until it ends. */
	private static void holdTheOrdersTable(Connection lockHolder, Statement statement) throws SQLException {
		lockHolder.setAutoCommit(false);
		statement.executeQuery("SELECT * FROM orders").close();
	}

	/**
	 * Starts an application whose schema migration runs at startup through its pool
	 * (Boot's {@code spring.sql.init}, as Flyway and Liquibase do by default).
	 * @return the start's failure, or {@code null} once it started
	 */
	private CompletableFuture<Throwable> startMigrating(String parameters) {
		CompletableFuture<Throwable> start = new CompletableFuture<>();
		Thread thread = new Thread(() -> this.runner
			.withConfiguration(AutoConfigurations.of(DataSourceInitializationAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + url("mysql", server.port(), parameters),
					"spring.sql.init.mode=always", "spring.sql.init.schema-locations=" + MIGRATION)
			.run((context) -> start.complete(context.getStartupFailure())), "migrating-start");
		thread.setDaemon(true);
		thread.start();
		return start;
	}

	private static boolean alterWaiting() throws SQLException {
		try (Connection observer = observer();
				Statement statement = observer.createStatement();
				ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST "
						+ "WHERE INFO LIKE 'ALTER TABLE orders%' AND STATE = 'Waiting for table metadata lock'")) {
			result.next();
			return result.getInt(1) > 0;
		}
	}

	private static boolean hasNote() throws SQLException {
		try (Connection observer = observer();
				Statement statement = observer.createStatement();
				ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM information_schema.COLUMNS "
						+ "WHERE TABLE_SCHEMA = 'safedefaults' AND TABLE_NAME = 'orders' AND COLUMN_NAME = 'note'")) {
			result.next();
			return result.getInt(1) == 1;
		}
	}

	private static String serverQuery(long session) throws SQLException {
		try (Connection observer = observer();
				Statement statement = observer.createStatement();
				ResultSet result = statement
					.executeQuery("SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = " + session)) {
			return result.next() ? String.valueOf(result.getString(1)) : "no session";
		}
	}

	private static Throwable rootCause(Throwable throwable) {
		Throwable root = throwable;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

}
