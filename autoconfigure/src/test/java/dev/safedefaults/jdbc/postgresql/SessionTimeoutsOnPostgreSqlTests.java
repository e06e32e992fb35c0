package dev.safedefaults.jdbc.postgresql;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.PoolStartedAtStartup;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import dev.safedefaults.testsupport.FreePort;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23: {@code jdbc.max-lifetime} and {@code jdbc.no-timeouts} on PostgreSQL pools,
 * read from the pool's own session on the PostgreSQL 15 service the project's machines
 * run (see {@link PoolStatusOnPostgreSqlTests}; skipped off CI without it, a failure on
 * CI). The sessions' settings are changed per pool the way an application or a role
 * would, with pgjdbc's {@code options=-c name=value} URL parameter.
 */
class SessionTimeoutsOnPostgreSqlTests {

	private static final String URL = PoolStatusOnPostgreSqlTests.URL;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.username=postgres", "spring.datasource.name=orders",
				"safe-defaults.checks.enabled=false");

	@BeforeAll
	static void requirePostgreSql() {
		PoolStatusOnPostgreSqlTests.requirePostgreSql();
	}

	/**
	 * Both deferred checks on one context, as the runner would run them: one session
	 * between them.
	 */
	private List<Finding> check(String url, String... properties) {
		return check(this.runner, url, properties);
	}

	private static List<Finding> check(ApplicationContextRunner runner, String url, String... properties) {
		AtomicReference<List<Finding>> findings = new AtomicReference<>();
		runner.withPropertyValues("spring.datasource.url=" + url).withPropertyValues(properties).run((context) -> {
			assertThat(context).hasNotFailed();
			List<Finding> all = new ArrayList<>(context.getBean(MaxLifetimeCheck.class).run());
			all.addAll(context.getBean(PostgreSqlTimeoutsCheck.class).run());
			findings.set(all);
		});
		return findings.get();
	}

	private static List<Finding> withId(List<Finding> findings, String id) {
		return findings.stream().filter((finding) -> finding.id().equals(id)).toList();
	}

	@Test
	void warnsWhenTheSessionsIdleSessionTimeoutIsShorterThanHikarisDefaults() {
		List<Finding> findings = check(URL + "?options=-c%20idle_session_timeout=60000");
		assertThat(withId(findings, JdbcFindings.MAX_LIFETIME.id())).singleElement().satisfies((finding) -> {
			assertThat(finding.severity()).isEqualTo(Severity.WARNING);
			assertThat(finding.subject()).isEqualTo("orders");
			assertThat(finding.message()).contains("after 60s idle (idle_session_timeout", "maxLifetime=1800s",
					"keepaliveTime=120s", "jdbc:postgresql://127.0.0.1:5432/test");
			assertThat(finding.fix()).contains("spring.datasource.hikari.max-lifetime=30000 ",
					"spring.datasource.hikari.keepalive-time=30000 ");
		});
	}

	@Test
	void warnsOnARunningPoolThroughOneOfItsOwnConnections() {
		List<Finding> findings = check(this.runner.withBean(PoolStartedAtStartup.class),
				URL + "?options=-c%20idle_session_timeout=300000", "spring.datasource.hikari.max-lifetime=600000",
				"spring.datasource.hikari.keepalive-time=0");
		assertThat(withId(findings, JdbcFindings.MAX_LIFETIME.id())).singleElement()
			.satisfies((finding) -> assertThat(finding.fix()).contains("spring.datasource.hikari.max-lifetime=270000 ",
					"spring.datasource.hikari.keepalive-time=120000 "));
	}

	@Test
	void namesTheServersTimeoutWhenHikariCannotRetireOrPingSoonEnough() {
		List<Finding> findings = check(URL + "?options=-c%20idle_session_timeout=45000");
		assertThat(withId(findings, JdbcFindings.MAX_LIFETIME.id())).singleElement()
			.satisfies((finding) -> assertThat(finding.fix()).contains("Hikari cannot retire or ping",
					"idle_session_timeout of 45s"));
	}

	@Test
	void staysSilentWithTheServersDefaultSettings() {
		// PostgreSQL's default idle_session_timeout is 0: sessions are never closed for
		// idleness.
		assertThat(withId(check(URL), JdbcFindings.MAX_LIFETIME.id())).isEmpty();
	}

	@Test
	void staysSilentWhenKeepaliveTimePingsIdleConnectionsInTime() {
		// Hikari's default keepaliveTime of 2 min is at least 30 s below 5 min.
		assertThat(withId(check(URL + "?options=-c%20idle_session_timeout=300000"), JdbcFindings.MAX_LIFETIME.id()))
			.isEmpty();
	}

	@Test
	void doesNotCompareTheIdleInTransactionTimeout() {
		// It ends only sessions idle inside an open transaction, which pooled idle
		// connections never are.
		assertThat(withId(check(URL + "?options=-c%20idle_in_transaction_session_timeout=1000"),
				JdbcFindings.MAX_LIFETIME.id()))
			.isEmpty();
	}

	@Test
	void reportsAServerItCannotReachAsUncheckedOnce() {
		List<Finding> findings = check("jdbc:postgresql://127.0.0.1:" + FreePort.pick() + "/test");
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo(JdbcFindings.MAX_LIFETIME_UNCHECKED.id());
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.message()).contains("idle_session_timeout", "PSQLException, SQLState 08001");
		});
	}

	@Test
	void reportsARefusedLoginOnceAndNothingElse() {
		// Trust authentication still refuses a role that does not exist (SQLState 28000).
		List<Finding> findings = check(URL, "spring.datasource.username=no_such_role_for_safe_defaults");
		assertThat(findings).extracting(Finding::id).containsExactly(JdbcFindings.LOGIN_REFUSED.id());
	}

	@Test
	void informsWhenNeitherASocketNorAStatementTimeoutIsSet() {
		assertThat(withId(check(URL), JdbcFindings.NO_TIMEOUTS.id())).singleElement().satisfies((finding) -> {
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.message()).contains("socketTimeout is 0", "statement_timeout is 0",
					"jdbc:postgresql://127.0.0.1:5432/test");
			assertThat(finding.fix()).contains("?socketTimeout=<seconds>");
		});
		assertThat(withId(check(this.runner.withBean(PoolStartedAtStartup.class), URL + "?ApplicationName=orders"),
				JdbcFindings.NO_TIMEOUTS.id()))
			.as("on a running pool")
			.singleElement()
			.satisfies((finding) -> assertThat(finding.fix()).contains("&socketTimeout=<seconds>"));
	}

	@Test
	void staysSilentWithASocketTimeoutFromTheUrlOrTheDataSourceProperties() {
		assertThat(withId(check(URL + "?socketTimeout=30"), JdbcFindings.NO_TIMEOUTS.id())).isEmpty();
		assertThat(withId(check(URL, "spring.datasource.hikari.data-source-properties.socketTimeout=30"),
				JdbcFindings.NO_TIMEOUTS.id()))
			.isEmpty();
		assertThat(withId(check(this.runner.withBean(PoolStartedAtStartup.class), URL + "?socketTimeout=30"),
				JdbcFindings.NO_TIMEOUTS.id()))
			.as("on a running pool")
			.isEmpty();
	}

	@Test
	void staysSilentWithAStatementTimeoutOnTheSessions() {
		assertThat(withId(check(URL + "?options=-c%20statement_timeout=5000"), JdbcFindings.NO_TIMEOUTS.id()))
			.isEmpty();
		assertThat(withId(check(URL, "spring.datasource.hikari.connection-init-sql=SET statement_timeout = 5000"),
				JdbcFindings.NO_TIMEOUTS.id()))
			.as("set by connectionInitSql")
			.isEmpty();
	}

}
