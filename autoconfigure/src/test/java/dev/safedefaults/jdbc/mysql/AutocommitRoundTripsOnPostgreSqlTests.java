package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.MachineService;
import dev.safedefaults.jdbc.jpaapp.JpaApplication;
import dev.safedefaults.jdbc.jpaapp.OwnerPages;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23: {@code jdbc.autocommit-round-trips} is a MySQL-protocol finding, and stays
 * silent on a PostgreSQL JPA application because there it would be false: pgjdbc's
 * {@code setAutoCommit(false)} sends nothing (it only makes the next statement start with
 * a {@code BEGIN} in the same message batch) and {@code setAutoCommit(true)} after a
 * {@code COMMIT} sends nothing either. Proved on the wire, not assumed: the same Spring
 * Data JPA + Hibernate application on the machine's PostgreSQL 15 (in a database of its
 * own), through a proxy that reads the protocol's messages (their types, the round trips
 * a client asks for with {@code Sync} and {@code Query}, and the SQL texts), with Boot's
 * auto-committing pool and with the MySQL finding's fix: the same messages per
 * transaction. Had pgjdbc sent a statement per {@code setAutoCommit}, as Connector/J
 * does, the auto-committing pool would show two more per transaction.
 */
class AutocommitRoundTripsOnPostgreSqlTests {

	private static final int PAGES = 20;

	private static final String DATABASE = "autocommit_pg_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 8);

	private static final String[] FIX = { AutocommitRoundTripsCheck.POOL_PROPERTY + "=false",
			AutocommitRoundTripsCheck.HIBERNATE_PROPERTY + "=true" };

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
				DataJpaRepositoriesAutoConfiguration.class, TransactionAutoConfiguration.class,
				SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
				MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
		.withUserConfiguration(JpaApplication.class)
		.withPropertyValues("spring.datasource.username=postgres", "spring.datasource.name=owners",
				"spring.datasource.hikari.maximum-pool-size=1", "spring.datasource.hikari.minimum-idle=1",
				"spring.jpa.hibernate.ddl-auto=none", "spring.jpa.open-in-view=false",
				"safe-defaults.checks.enabled=false",
				"spring.jpa.database-platform=org.hibernate.dialect.PostgreSQLDialect",
				"spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=false");

	@BeforeAll
	static void createTheDatabase() throws Exception {
		MachineService.requirePostgreSql();
		try (Connection connection = DriverManager.getConnection(MachineService.POSTGRESQL_URL, "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + DATABASE);
		}
		try (Connection connection = DriverManager.getConnection(url(5432), "postgres", "");
				Statement statement = connection.createStatement()) {
			for (String sql : JpaApplication.SCHEMA) {
				statement.execute(sql);
			}
		}
	}

	@AfterAll
	static void dropTheDatabase() throws Exception {
		try (Connection connection = DriverManager.getConnection(MachineService.POSTGRESQL_URL, "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
		}
	}

	private static String url(int port) {
		return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?sslmode=disable&gssEncMode=disable";
	}

	/**
	 * Round trips and statements per page of each kind, one transaction of each kind as
	 * it went on the wire, and what the check said.
	 */
	private record Run(double readRoundTrips, double writeRoundTrips, double writeExecutions,
			List<String> writeStatements, List<String> oneWrite, List<String> oneRead, List<Finding> findings) {

		@Override
		public String toString() {
			return String.format(Locale.ROOT,
					"transactional read %.2f round trips (Sync/Query), transactional write %.2f (%.2f statements "
							+ "executed); one write on the wire %s, one read %s",
					this.readRoundTrips, this.writeRoundTrips, this.writeExecutions, this.oneWrite, this.oneRead);
		}

	}

	private Run run(String... properties) throws Exception {
		AtomicReference<Run> run = new AtomicReference<>();
		try (PostgreSqlProtocolCounter counter = new PostgreSqlProtocolCounter("127.0.0.1", 5432)) {
			this.runner.withPropertyValues("spring.datasource.url=" + url(counter.port()))
				.withPropertyValues(properties)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					OwnerPages pages = context.getBean(OwnerPages.class);
					// Warm up past pgjdbc's prepareThreshold (5): server-prepared from
					// then on.
					for (int i = 0; i < 10; i++) {
						pages.transactionalRead();
						pages.transactionalWrite("warm-up " + i);
					}
					long start = counter.roundTrips();
					for (int i = 0; i < PAGES; i++) {
						pages.transactionalRead();
					}
					long reads = counter.roundTrips() - start;
					start = counter.roundTrips();
					long executionsBefore = counter.executions();
					int firstStatement = counter.statements().size();
					for (int i = 0; i < PAGES; i++) {
						pages.transactionalWrite("name " + i);
					}
					long writes = counter.roundTrips() - start;
					long executions = counter.executions() - executionsBefore;
					int lastMessages = counter.messages().size();
					pages.transactionalWrite("traced");
					List<String> trace = counter.messages();
					List<String> oneWrite = trace.subList(lastMessages, trace.size());
					lastMessages = trace.size();
					pages.transactionalRead();
					trace = counter.messages();
					List<String> oneRead = trace.subList(lastMessages, trace.size());
					List<String> statements = counter.statements();
					run.set(new Run(reads / (double) PAGES, writes / (double) PAGES, executions / (double) PAGES,
							statements.subList(firstStatement, statements.size()), oneWrite, oneRead,
							context.getBean(AutocommitRoundTripsCheck.class).run()));
				});
		}
		return run.get();
	}

	@Test
	void pgjdbcSendsNothingForSetAutoCommitSoTheFindingStaysSilent() throws Exception {
		Run autoCommitPool = run();
		Run fixed = run(FIX);
		String counts = "auto-commit pool: " + autoCommitPool + "; fixed: " + fixed;
		System.out.println("PostgreSQL, per transaction, " + counts);
		// The same messages on the wire per transaction, with or without the MySQL
		// finding's fix: nothing is sent for either setAutoCommit.
		assertThat(autoCommitPool.oneWrite()).as(counts).isNotEmpty().isEqualTo(fixed.oneWrite());
		assertThat(autoCommitPool.oneRead()).as(counts).isNotEmpty().isEqualTo(fixed.oneRead());
		// BEGIN (a simple Query), then the two statements and the COMMIT, each ending
		// with a Sync: four points where the client waits for the server, with or
		// without the fix.
		assertThat(autoCommitPool.readRoundTrips()).as(counts).isEqualTo(fixed.readRoundTrips()).isEqualTo(4);
		assertThat(autoCommitPool.writeRoundTrips()).as(counts).isEqualTo(fixed.writeRoundTrips()).isEqualTo(4);
		// BEGIN, SELECT, UPDATE, COMMIT: nothing for either setAutoCommit.
		assertThat(autoCommitPool.writeExecutions()).as(counts).isEqualTo(fixed.writeExecutions()).isEqualTo(4);
		assertThat(autoCommitPool.writeStatements()).as(counts)
			.noneMatch((sql) -> sql.toLowerCase(Locale.ROOT).contains("autocommit"));
		assertThat(autoCommitPool.findings()).as("jdbc.autocommit-round-trips on PostgreSQL").isEmpty();
		assertThat(fixed.findings()).isEmpty();
	}

}
