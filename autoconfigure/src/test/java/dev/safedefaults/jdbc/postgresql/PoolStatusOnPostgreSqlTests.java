package dev.safedefaults.jdbc.postgresql;

import java.time.Duration;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.CheckRun;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.StartupCheckRunner;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFeatureStatus;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.MachineService;
import dev.safedefaults.jdbc.PoolStartedAtStartup;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23: a PostgreSQL pool is left alone, and the startup line and the endpoint say so
 * per pool, with the reason, instead of {@code jdbc(no pool)}. Runs against the
 * PostgreSQL 15 service the project's machines run on the loopback (trust authentication,
 * user {@code postgres}, database {@code test}); without it they fail on CI and are
 * skipped, with a {@code SKIPPED:} line, elsewhere ({@link MachineService}).
 */
class PoolStatusOnPostgreSqlTests {

	static final String URL = MachineService.POSTGRESQL_URL;

	private static final String MYSQL_URL = "jdbc:mysql://127.0.0.1:1/app";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + URL, "spring.datasource.username=postgres",
				"safe-defaults.checks.enabled=true");

	@BeforeAll
	static void requirePostgreSql() {
		MachineService.requirePostgreSql();
	}

	@Test
	void aStartedPostgreSqlPoolIsNamedLeftAloneWithItsReason() {
		this.runner.withBean(PoolStartedAtStartup.class).run((context) -> {
			assertThat(context).hasNotFailed();
			FeatureStatus status = context.getBean(JdbcFeatureStatus.class).status();
			assertThat(status.shortForm()).as("the pool in the startup line")
				.matches("jdbc\\(HikariPool-\\d+: left alone, jdbc:postgresql is not a MySQL-protocol pool .*\\)")
				.doesNotContain("no pool");
			assertThat(status.reason()).as("the endpoint")
				.contains("left alone", "jdbc:postgresql://127.0.0.1:5432/test");
			StartupCheckRunner checks = context.getBean(StartupCheckRunner.class);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> checks.getRuns().stream().noneMatch((run) -> run.status() == CheckRun.Status.RUNNING));
			assertThat(context.getBean(FindingsStore.class).findings()).as("no MySQL finding on a PostgreSQL pool")
				.filteredOn((finding) -> finding.id().startsWith("jdbc."))
				.extracting(Finding::id)
				.containsExactly(JdbcFindings.NO_TIMEOUTS.id());
		});
	}

	@Test
	void withTheDefaultsOffEachPoolSaysWhetherTheChecksLookAtIt() {
		this.runner.withPropertyValues("safe-defaults.jdbc.enabled=false", "spring.datasource.name=orders")
			.run((context) -> assertThat(context.getBean(JdbcFeatureStatus.class).status().shortForm())
				.startsWith("jdbc(orders: left alone, jdbc:postgresql is not a MySQL-protocol pool"));
		this.runner
			.withPropertyValues("safe-defaults.jdbc.enabled=false", "spring.datasource.name=orders",
					"spring.datasource.url=" + MYSQL_URL)
			.run((context) -> assertThat(context.getBean(JdbcFeatureStatus.class).status().shortForm())
				.isEqualTo("jdbc(orders: checks only)"));
	}

}
