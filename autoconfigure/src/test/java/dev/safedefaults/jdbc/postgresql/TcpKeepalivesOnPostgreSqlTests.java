package dev.safedefaults.jdbc.postgresql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23: PostgreSQL's server-side TCP keepalive settings ({@code tcp_keepalives_idle},
 * {@code tcp_keepalives_interval}, {@code tcp_keepalives_count}) do not change what
 * {@code jdbc.max-lifetime} advises, so the check does not read them. They make the
 * server's kernel probe an idle connection and drop it only when the probes go
 * unanswered, that is when the client is gone; a pool connection resting idle is alive,
 * its kernel answers the probes, and the session stays. Proved on the machine's
 * PostgreSQL 15 with the most aggressive settings (a probe after 1 s idle, every 1 s, the
 * connection dropped after 1 unanswered one): the pool's one session, idle for five probe
 * periods, is still the same backend and still works, and the check raises nothing.
 */
class TcpKeepalivesOnPostgreSqlTests {

	private static final String KEEPALIVES = "?options=-c%20tcp_keepalives_idle=1%20-c%20tcp_keepalives_interval=1"
			+ "%20-c%20tcp_keepalives_count=1";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + PoolStatusOnPostgreSqlTests.URL + KEEPALIVES,
				"spring.datasource.username=postgres", "spring.datasource.name=orders",
				"spring.datasource.hikari.maximum-pool-size=1", "spring.datasource.hikari.minimum-idle=1",
				"safe-defaults.checks.enabled=false");

	@BeforeAll
	static void requirePostgreSql() {
		PoolStatusOnPostgreSqlTests.requirePostgreSql();
	}

	@Test
	void serverKeepaliveProbesDoNotEndAnIdlePoolSessionAndTheCheckStaysSilent() {
		AtomicReference<List<Finding>> findings = new AtomicReference<>();
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			HikariDataSource pool = context.getBean(HikariDataSource.class);
			int backend;
			try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
				// Applied: the session is a TCP one (on a Unix socket they read 0).
				assertThat(show(statement, "tcp_keepalives_idle")).isEqualTo("1");
				assertThat(show(statement, "tcp_keepalives_count")).isEqualTo("1");
				backend = backendPid(statement);
			}
			try (Connection observer = DriverManager.getConnection(PoolStatusOnPostgreSqlTests.URL, "postgres", "");
					PreparedStatement idleFor = observer.prepareStatement("SELECT state, "
							+ "EXTRACT(EPOCH FROM now() - state_change) FROM pg_stat_activity WHERE pid = ?")) {
				idleFor.setInt(1, backend);
				await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> {
					try (ResultSet result = idleFor.executeQuery()) {
						assertThat(result.next()).as("backend %s still there", backend).isTrue();
						return "idle".equals(result.getString(1)) && result.getDouble(2) >= 5;
					}
				});
			}
			try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
				assertThat(backendPid(statement)).as("the same session, idle for five probe periods")
					.isEqualTo(backend);
			}
			findings.set(context.getBean(MaxLifetimeCheck.class).run());
		});
		assertThat(findings.get()).isEmpty();
	}

	private static String show(Statement statement, String setting) throws Exception {
		try (ResultSet result = statement.executeQuery("SHOW " + setting)) {
			result.next();
			return result.getString(1);
		}
	}

	private static int backendPid(Statement statement) throws Exception {
		try (ResultSet result = statement.executeQuery("SELECT pg_backend_pid()")) {
			result.next();
			return result.getInt(1);
		}
	}

}
