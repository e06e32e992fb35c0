package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.jpaapp.JpaApplication;
import dev.safedefaults.jdbc.jpaapp.OwnerRepository;
import dev.safedefaults.jdbc.jpaapp.OwnerService;
import dev.safedefaults.jdbc.mysql.StatementCounters.Counts;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;

import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_COMMIT;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_ROLLBACK;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_SET_OPTION;
import static dev.safedefaults.jdbc.mysql.StatementCounters.QUESTIONS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spring Data JPA + Hibernate application on an embedded MariaDB 11.4 of this
 * class's own: the statements its transactions send, counted by the server ({@code Com_*}
 * deltas), with the pool auto-committing (Boot's default) and with the fix
 * ({@code auto-commit=false} plus {@code provider_disables_autocommit=true}), and what
 * {@code jdbc.autocommit-round-trips} says about each. The check finds the factory and
 * its pool through the jdbc root's {@code HibernateOnHikari}.
 */
@Slow
class AutocommitRoundTripsOnEmbeddedMariaDbTests {

	private static final int TRANSACTIONS = 50;

	private static final int POOL_SIZE = 2;

	private static final String FIX_POOL = AutocommitRoundTripsCheck.POOL_PROPERTY + "=false";

	private static final String FIX_HIBERNATE = AutocommitRoundTripsCheck.HIBERNATE_PROPERTY + "=true";

	private static EmbeddedMariaDb server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
				DataJpaRepositoriesAutoConfiguration.class, TransactionAutoConfiguration.class,
				SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
				MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
		.withUserConfiguration(JpaApplication.class)
		.withPropertyValues("spring.datasource.username=root", "spring.datasource.password=",
				"spring.datasource.name=owners", "spring.datasource.hikari.maximum-pool-size=" + POOL_SIZE,
				"spring.datasource.hikari.minimum-idle=" + POOL_SIZE, "spring.jpa.hibernate.ddl-auto=none",
				"spring.jpa.open-in-view=false", "safe-defaults.checks.enabled=false",
				// Connector/J's keyword query fails on MariaDB 11.4 (no KEYWORDS.RESERVED
				// column):
				// name the dialect instead of letting Hibernate ask the driver.
				"spring.jpa.database-platform=org.hibernate.dialect.MariaDBDialect",
				"spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=false");

	@BeforeAll
	static void startServer() throws Exception {
		server = EmbeddedMariaDb.start();
		try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
			for (String sql : JpaApplication.SCHEMA) {
				statement.execute(sql);
			}
		}
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	/**
	 * What the application's transactions sent, per transaction, and what the check said.
	 */
	private record Run(Counts reads, Counts writes, List<Finding> findings) {

		double perRead(String counter) {
			return this.reads.get(counter) / (double) TRANSACTIONS;
		}

		double perWrite(String counter) {
			return this.writes.get(counter) / (double) TRANSACTIONS;
		}

	}

	private Run run(String scheme, String... properties) {
		AtomicReference<Run> run = new AtomicReference<>();
		this.runner.withPropertyValues("spring.datasource.url=" + server.url(scheme, ""))
			.withPropertyValues(properties)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				JdbcDefaultsOnEmbeddedMariaDbTests.fill(context.getBean(HikariDataSource.class));
				OwnerRepository owners = context.getBean(OwnerRepository.class);
				OwnerService service = context.getBean(OwnerService.class);
				// Warm up: Hibernate's first use prepares its statements.
				owners.findById(1L).orElseThrow();
				service.rename(2, "warm-up");
				try (Connection observer = server.connect()) {
					Counts reads = StatementCounters.measureGlobal(observer, () -> {
						for (int i = 0; i < TRANSACTIONS; i++) {
							owners.findById(1L).orElseThrow();
						}
					});
					Counts writes = StatementCounters.measureGlobal(observer, () -> {
						for (int i = 0; i < TRANSACTIONS; i++) {
							service.rename(2, "name " + i);
						}
					});
					run.set(new Run(reads, writes, context.getBean(AutocommitRoundTripsCheck.class).run()));
				}
			});
		return run.get();
	}

	@Test
	void anAutoCommitPoolCostsTwoStatementsPerTransactionAndTheCheckSaysSo() {
		for (String scheme : List.of("mysql", "mariadb")) {
			Run before = run(scheme);
			Run after = run(scheme, FIX_POOL, FIX_HIBERNATE);
			String counts = scheme + " before: reads " + before.reads() + " / writes " + before.writes()
					+ "; after: reads " + after.reads() + " / writes " + after.writes();
			int extra = AutocommitRoundTripsCheck.EXTRA_STATEMENTS_PER_TRANSACTION;
			// SET autocommit=0 before, SET autocommit=1 after: Com_set_option.
			assertThat(before.perRead(COM_SET_OPTION) - after.perRead(COM_SET_OPTION)).as(counts).isEqualTo(extra);
			assertThat(before.perWrite(COM_SET_OPTION) - after.perWrite(COM_SET_OPTION)).as(counts).isEqualTo(extra);
			assertThat(before.perRead(QUESTIONS) - after.perRead(QUESTIONS)).as(counts).isEqualTo(extra);
			assertThat(before.perWrite(QUESTIONS) - after.perWrite(QUESTIONS)).as(counts).isEqualTo(extra);
			// Every transaction commits, before and after; nothing is rolled back.
			assertThat(before.perRead(COM_COMMIT)).as(counts).isEqualTo(1);
			assertThat(after.perRead(COM_COMMIT)).as(counts).isEqualTo(1);
			assertThat(after.perWrite(COM_COMMIT)).as(counts).isEqualTo(1);
			assertThat(after.perWrite(COM_ROLLBACK) + after.perRead(COM_ROLLBACK)).as(counts).isZero();
			assertThat(before.findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.AUTOCOMMIT_ROUND_TRIPS.id());
				assertThat(finding.severity()).isEqualTo(Severity.INFO);
				assertThat(finding.subject()).isEqualTo("owners (entityManagerFactory)");
				assertThat(finding.message()).contains(extra + " extra round trips");
				assertThat(finding.fix()).contains("spring.datasource.hikari.auto-commit=false",
						"spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true",
						"rolls it back");
			});
			assertThat(after.findings()).isEmpty();
			System.out.println("Statements per transaction, " + counts);
		}
	}

	@Test
	void bootAddsTheHibernatePropertyWhenThePoolDoesNotAutoCommit() {
		Run run = run("mysql", FIX_POOL);
		assertThat(run.findings()).isEmpty();
		assertThat(run.perWrite(COM_SET_OPTION)).as("%s", run.writes()).isZero();
	}

	@Test
	void readsTheSettingAHibernatePropertiesCustomizerMakes() {
		this.runner.withPropertyValues("spring.datasource.url=" + server.url("mysql", ""), FIX_POOL)
			.withBean(HibernatePropertiesCustomizer.class,
					() -> (properties) -> properties.put("hibernate.connection.provider_disables_autocommit", "false"))
			.run((context) -> assertThat(context.getBean(AutocommitRoundTripsCheck.class).run()).isEmpty());
		this.runner.withPropertyValues("spring.datasource.url=" + server.url("mysql", ""))
			.withBean(HibernatePropertiesCustomizer.class,
					() -> (Map<String, Object> properties) -> properties
						.put("hibernate.connection.provider_disables_autocommit", "true"))
			.run((context) -> assertThat(context.getBean(AutocommitRoundTripsCheck.class).run()).singleElement()
				.satisfies((finding) -> assertThat(finding.id())
					.isEqualTo(MySqlProtocolFindings.AUTOCOMMIT_MISMATCH.id())));
	}

	@Test
	void warnsWhenHibernateIsToldAutoCommitIsOffOnAPoolThatAutoCommits() {
		// MariaDB Connector/J ignores the COMMIT; MySQL Connector/J refuses it ("Can't
		// call
		// commit when autocommit=true"), so every transaction fails there.
		Run run = run("mariadb", FIX_HIBERNATE);
		assertThat(run.findings()).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.AUTOCOMMIT_MISMATCH.id());
			assertThat(finding.severity()).isEqualTo(Severity.WARNING);
		});
		// What the warning is about: no transaction at all, each statement commits on its
		// own.
		assertThat(run.perWrite(COM_COMMIT)).as("%s", run.writes()).isZero();
		assertThat(run.perWrite(COM_SET_OPTION)).as("%s", run.writes()).isZero();
	}

}
