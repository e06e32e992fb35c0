package dev.safedefaults.jdbc.mysql;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.List;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.HostileInputs.Case;
import dev.safedefaults.check.HostileInputs;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFeatureStatus;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.PoolServerVariables;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every hostile URL as a real Hikari pool's URL (never started): what the JDBC feature
 * says about it (applied, or "left alone" for other drivers) and every finding its checks
 * raise carry no fragment of the secret.
 */
class HostileJdbcUrlsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
						MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.disabled=" + MySqlProtocolFindings.PREPARED_STMT_BUDGET.id() + ","
				+ MySqlProtocolFindings.PREPARED_STMT_BUDGET_UNCHECKED.id());

	private static HikariDataSource pool(Case hostile) {
		HikariDataSource pool = new HikariDataSource();
		pool.setJdbcUrl(hostile.input());
		pool.setPoolName("orders");
		return pool;
	}

	static Stream<Case> urls() {
		return HostileInputs.urls();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("urls")
	void theFeatureStatusAndTheFindingsCarryNoFragmentOfTheSecret(Case hostile) {
		this.runner.withBean("dataSource", HikariDataSource.class, () -> pool(hostile)).run((context) -> {
			assertThat(context).hasNotFailed();
			String status = context.getBeansOfType(FeatureStatusReporter.class)
				.values()
				.stream()
				.map((reporter) -> reporter.status().toString())
				.toList()
				.toString();
			assertThat(status).contains("orders");
			HostileInputs.assertNoFragment(hostile, "feature status", status);
			HostileInputs.assertNoFragment(hostile, "findings",
					context.getBean(FindingsStore.class).findings().toString());
		});
	}

	@Test
	void aNonMySqlPoolIsLeftAloneWithItsUrlRenderedForDisplay() {
		this.runner.withBean("dataSource", HikariDataSource.class, () -> {
			HikariDataSource pool = new HikariDataSource();
			pool.setJdbcUrl("jdbc:oracle:thin:scott/S3cretPW@//db.example:1521/orders");
			return pool;
		})
			.run((context) -> assertThat(context.getBean(JdbcFeatureStatus.class).status().reason())
				.contains("jdbc:oracle:thin:@//db.example:1521/orders")
				.contains("left alone")
				.doesNotContain("S3cretPW")
				.doesNotContain("scott"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("urlsTheDriverCannotParse")
	void theDeferredCheckOnItsOwnConnectionShowsNoPieceTheDriverQuotes(Case hostile) {
		// Run directly, so the assertion never races the deferred thread: Connector/J
		// refuses
		// these URLs before any I/O, quoting the piece it could not parse.
		this.runner.withBean("dataSource", HikariDataSource.class, () -> pool(hostile)).run((context) -> {
			List<?> findings = new MaxLifetimeCheck(context.getBeanFactory()).run();
			assertThat(findings).singleElement().asString().contains(JdbcFindings.MAX_LIFETIME_UNCHECKED.id());
			HostileInputs.assertNoFragment(hostile, "jdbc.max-lifetime", findings.toString());
		});
	}

	static Stream<Case> urlsTheDriverCannotParse() {
		return HostileInputs.urls()
			.filter((hostile) -> hostile.name().equals("user-info raw with #")
					|| hostile.name().equals("address form, parenthesis in password"));
	}

	@Test
	void aDriverMessageQuotingAPieceOfThePasswordIsNeverShown() {
		// Connector/J quotes the part of a URL it cannot parse: with a ':' or ')' in a
		// password
		// that part is a piece of the password. A failure is rendered from its classes
		// only.
		SQLException ex = new SQLNonTransientConnectionException(
				"Cannot load connection class because of underlying exception: Failed to parse the host:port pair 'app:Vw4'.",
				"08001", new IllegalArgumentException("near 'Jh8)' using password Gh4 Ij5"));
		assertThat(PoolServerVariables.describe(ex))
			.isEqualTo("SQLNonTransientConnectionException, SQLState 08001, caused by IllegalArgumentException");
	}

}
