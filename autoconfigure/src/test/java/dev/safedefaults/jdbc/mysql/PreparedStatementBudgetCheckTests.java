package dev.safedefaults.jdbc.mysql;

import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The budget arithmetic with a stand-in for the server (the real read is tested in
 * {@link JdbcDefaultsOnEmbeddedMariaDbTests}).
 */
class PreparedStatementBudgetCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=" + JdbcDefaultsAutoConfigurationTests.MYSQL_URL,
				"spring.datasource.name=orders", "safe-defaults.checks.enabled=false");

	private static List<Finding> run(AssertableApplicationContext context,
			PreparedStatementBudgetCheck.ServerVariableReader reader) {
		return new PreparedStatementBudgetCheck(context, context.getBean(JdbcDefaultsProperties.class), reader).run();
	}

	@Test
	void isDeferredBecauseItQueriesTheServer() {
		this.runner
			.run((context) -> assertThat(context.getBean(PreparedStatementBudgetCheck.class).deferred()).isTrue());
	}

	@Test
	void staysSilentWhenThePoolsUseLessThanHalfTheServersStatements() {
		// 10 x 250 x 1 = 2,500 <= 16,382 / 2
		this.runner.run((context) -> assertThat(run(context, (pool) -> 16_382)).isEmpty());
	}

	@Test
	void warnsWhenThePoolsMayUseMoreThanHalfTheServersStatements() {
		// The incident's pool: 100 x 250 = 25,000 > 16,382 / 2
		this.runner.withPropertyValues("spring.datasource.hikari.maximum-pool-size=100")
			.run((context) -> assertThat(run(context, (pool) -> 16_382)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.PREPARED_STMT_BUDGET.id());
				assertThat(finding.severity()).isEqualTo(Severity.WARNING);
				assertThat(finding.subject()).isEqualTo("orders");
				assertThat(finding.message())
					.contains("100 connections x prepStmtCacheSize 250 x 1 instance(s) = 25000", "16382");
			}));
	}

	@Test
	void countsTheExpectedInstancesAndTheCacheSizeInEffect() {
		// 10 x 100 x 5 = 5,000 > 8,000 / 2
		this.runner
			.withPropertyValues("safe-defaults.jdbc.expected-instances=5",
					"spring.datasource.hikari.data-source-properties.prepStmtCacheSize=100")
			.run((context) -> assertThat(run(context, (pool) -> 8_000)).singleElement()
				.satisfies((finding) -> assertThat(finding.message())
					.contains("x prepStmtCacheSize 100 x 5 instance(s)")));
	}

	@Test
	void aServerWithoutLimitIsFine() {
		// TiDB's max_prepared_stmt_count is -1 by default: no limit.
		this.runner.withPropertyValues("spring.datasource.hikari.maximum-pool-size=100")
			.run((context) -> assertThat(run(context, (pool) -> -1)).isEmpty());
	}

	@Test
	void anUnreachableServerIsReportedAsInfo() {
		this.runner.run((context) -> assertThat(run(context, (pool) -> {
			throw new ConnectException("Connection refused");
		})).singleElement().satisfies((finding) -> {
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.message()).contains("Could not read @@max_prepared_stmt_count", "ConnectException")
				.doesNotContain("Connection refused");
		}));
	}

	@Test
	void neverAsksTheServerWhenServerPreparesAreOff() {
		AtomicInteger reads = new AtomicInteger();
		this.runner.withPropertyValues("safe-defaults.jdbc.enabled=false").run((context) -> {
			assertThat(run(context, (pool) -> reads.incrementAndGet())).isEmpty();
			assertThat(reads).hasValue(0);
		});
	}

	@Test
	void neverAsksAboutANonMySqlPool() {
		AtomicInteger reads = new AtomicInteger();
		this.runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:budget").run((context) -> {
			assertThat(run(context, (pool) -> reads.incrementAndGet())).isEmpty();
			assertThat(reads).hasValue(0);
		});
	}

}
