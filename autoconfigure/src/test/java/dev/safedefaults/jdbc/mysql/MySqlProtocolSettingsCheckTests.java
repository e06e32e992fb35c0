package dev.safedefaults.jdbc.mysql;

import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingCatalogue;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFeatureStatus;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Each configuration check of the MySQL-protocol drivers
 * ({@link MySqlProtocolSettingsCheck}, run by the jdbc root's {@code PoolSettingsCheck})
 * fires on a pool set up to trigger it and stays silent on the starter's defaults. The
 * pools never start (nothing listens on port 1); the deferred budget check is silenced
 * here (see {@link JdbcDefaultsOnEmbeddedMariaDbTests}).
 */
class MySqlProtocolSettingsCheckTests {

	private static final String MYSQL_URL = JdbcDefaultsAutoConfigurationTests.MYSQL_URL;

	private static final String MARIADB_URL = JdbcDefaultsAutoConfigurationTests.MARIADB_URL;

	/**
	 * The deferred checks' findings: they query the (absent) server after startup, not
	 * this check's.
	 */
	private static final List<String> DEFERRED_IDS = List.of(MySqlProtocolFindings.PREPARED_STMT_BUDGET.id(),
			MySqlProtocolFindings.PREPARED_STMT_BUDGET_UNCHECKED.id(), JdbcFindings.MAX_LIFETIME.id(),
			JdbcFindings.MAX_LIFETIME_UNCHECKED.id());

	/** A pool without a socket timeout, as Boot and the drivers leave it (issue 34). */
	private final ApplicationContextRunner withoutSocketTimeout = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.name=orders",
				"safe-defaults.checks.disabled=" + String.join(",", DEFERRED_IDS));

	/**
	 * The pools of the other tests have a socket timeout, so that each sees only the
	 * finding it is about.
	 */
	private final ApplicationContextRunner runner = this.withoutSocketTimeout
		.withPropertyValues("spring.datasource.hikari.data-source-properties.socketTimeout=60000");

	private static List<Finding> findings(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(FindingsStore.class)
			.findings()
			.stream()
			.filter((finding) -> !DEFERRED_IDS.contains(finding.id()))
			.toList();
	}

	private static List<Finding> findings(AssertableApplicationContext context, String id) {
		return findings(context).stream().filter((finding) -> finding.id().equals(id)).toList();
	}

	@Test
	void theStartersDefaultsRaiseNothingOnConnectorJ() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL)
			.run((context) -> assertThat(findings(context)).isEmpty());
	}

	@Test
	void theStartersDefaultsRaiseNothingOnMariaDb() {
		this.runner.withPropertyValues("spring.datasource.url=" + MARIADB_URL)
			.run((context) -> assertThat(findings(context)).isEmpty());
	}

	@Test
	void serverPreparesTurnedOffInTheUrlAreReported() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?useServerPrepStmts=false")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.SERVER_PREP_STMTS_OFF.id());
				assertThat(finding.severity()).isEqualTo(Severity.WARNING);
				assertThat(finding.subject()).isEqualTo("orders");
				assertThat(finding.message()).contains("useServerPrepStmts=false, set in the URL", MYSQL_URL);
			}));
	}

	@Test
	void aPlainPoolWithTheStarterOffIsReportedOnceForItsOneCause() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL, "safe-defaults.jdbc.enabled=false")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.SERVER_PREP_STMTS_OFF.id());
				assertThat(finding.message()).contains("prepared statement cache", "driver's defaults");
				assertThat(finding.fix()).contains("safe-defaults.jdbc.enabled=true", "cachePrepStmts=true");
			}));
	}

	@Test
	void aCacheTurnedOffWithClientSideStatementsDoesNotClaimStatementsArePrepared() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?useServerPrepStmts=false&cachePrepStmts=false")
			.run((context) -> assertThat(findings(context, MySqlProtocolFindings.STMT_CACHE_OFF.id())).singleElement()
				.satisfies((finding) -> {
					assertThat(finding.message()).contains("client-side statements", "parses")
						.doesNotContain("prepared again", "prepared on the server");
					assertThat(finding.fix()).contains("Remove cachePrepStmts (set in the URL)");
				}));
	}

	@Test
	void mariaDbBatchRewritingIsReportedAsServerPreparesOff() {
		this.runner.withPropertyValues("spring.datasource.url=" + MARIADB_URL + "?rewriteBatchedStatements=true")
			.run((context) -> assertThat(findings(context, MySqlProtocolFindings.SERVER_PREP_STMTS_OFF.id()))
				.singleElement()
				.satisfies((finding) -> assertThat(finding.message()).contains("rewriteBatchedStatements=true")));
	}

	@Test
	void aStatementCacheTurnedOffIsReported() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL,
					"spring.datasource.hikari.data-source-properties.cachePrepStmts=false")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.STMT_CACHE_OFF.id());
				assertThat(finding.message()).contains("cachePrepStmts=false, set in the data-source properties");
			}));
	}

	@Test
	void aStatementCacheOfSizeZeroIsReported() {
		this.runner.withPropertyValues("spring.datasource.url=" + MARIADB_URL + "?prepStmtCacheSize=0")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactly(MySqlProtocolFindings.STMT_CACHE_OFF.id()));
	}

	@Test
	void aLowSqlLimitIsReported() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?prepStmtCacheSqlLimit=1024")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.STMT_CACHE_SQL_LIMIT_LOW.id());
				assertThat(finding.message()).contains("prepStmtCacheSqlLimit=1024");
			}));
	}

	@Test
	void maxPerformanceWithoutQueryTimeoutsIsReported() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL
					+ "?useConfigs=maxPerformance&useServerPrepStmts=true&prepStmtCacheSqlLimit=2048")
			.withPropertyValues("safe-defaults.jdbc.enabled=false")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.QUERY_TIMEOUTS_OFF.id());
				assertThat(finding.message()).contains("from useConfigs=maxPerformance", "setQueryTimeout");
			}));
	}

	@Test
	void queryTimeoutsTurnedOffExplicitlyAreReported() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?enableQueryTimeouts=false")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactly(MySqlProtocolFindings.QUERY_TIMEOUTS_OFF.id()));
	}

	@Test
	void localSessionStateWithInitSqlChangingItIsReported() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?useLocalSessionState=true",
				"spring.datasource.hikari.connection-init-sql=SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.LOCAL_SESSION_STATE.id());
				assertThat(finding.message()).contains("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
			}));
	}

	@Test
	void theStartersMaxPerformanceWithInitSqlChangingSessionStateRaisesNothing() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL,
					"spring.datasource.hikari.connection-init-sql=USE other")
			.run((context) -> assertThat(findings(context)).isEmpty());
	}

	@Test
	void autoReconnectIsReported() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?autoReconnect=true")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactly(MySqlProtocolFindings.AUTO_RECONNECT.id()));
	}

	@Test
	void multiQueriesAreReportedOnBothDrivers() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?allowMultiQueries=true")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactly(MySqlProtocolFindings.MULTI_QUERIES.id()));
		this.runner.withPropertyValues("spring.datasource.url=" + MARIADB_URL + "?allowMultiQueries=true")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactly(MySqlProtocolFindings.MULTI_QUERIES.id()));
	}

	@Test
	void aKeyConnectorJDoesNotKnowIsReportedAsInfo() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?multiStatements=true")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.IGNORED_PROPERTY.id());
				assertThat(finding.severity()).isEqualTo(Severity.INFO);
				assertThat(finding.message()).contains("'multiStatements' (in the URL)", "MySQL Connector/J",
						"allowMultiQueries");
			}));
	}

	@Test
	void aConnectorJKeyInTheWrongCaseIsReportedWithItsSpelling() {
		// The user's intent wins over the starter's default even in the wrong case, and
		// Connector/J ignores it: maxPerformance then turns query timeouts off. Both say
		// so.
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL,
					"spring.datasource.hikari.data-source-properties.enablequerytimeouts=true")
			.run((context) -> {
				assertThat(findings(context, MySqlProtocolFindings.IGNORED_PROPERTY.id())).singleElement()
					.satisfies((finding) -> assertThat(finding.message()).contains("'enablequerytimeouts'",
							"case-sensitive", "enableQueryTimeouts"));
				assertThat(findings(context)).extracting(Finding::id)
					.containsExactlyInAnyOrder(MySqlProtocolFindings.IGNORED_PROPERTY.id(),
							MySqlProtocolFindings.QUERY_TIMEOUTS_OFF.id());
			});
	}

	@Test
	void keysMariaDbIgnoresAreReported() {
		this.runner
			.withPropertyValues(
					"spring.datasource.url=" + MARIADB_URL + "?useConfigs=maxPerformance&prepStmtCacheSqlLimit=2048")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id, Finding::subject)
				.containsExactly(tuple(MySqlProtocolFindings.IGNORED_PROPERTY.id(), "orders"),
						tuple(MySqlProtocolFindings.IGNORED_PROPERTY.id(), "orders")));
	}

	@Test
	void keysTheDriversKnowRaiseNothing() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?characterEncoding=utf8&serverTimezone=UTC",
					"spring.datasource.hikari.data-source-properties.tcpKeepAlive=true")
			.run((context) -> assertThat(findings(context)).isEmpty());
		this.runner.withPropertyValues("spring.datasource.url=" + MARIADB_URL + "?USESERVERPREPSTMTS=true&useSsl=false")
			.run((context) -> assertThat(findings(context)).isEmpty());
	}

	@Test
	void theIncidentsUrlIsReportedWithoutItsPassword() {
		// The URL of incident 5 (seed 002), with a password added.
		this.runner
			.withPropertyValues(
					"spring.datasource.url=jdbc:mysql://app:t0p-s3cret@127.0.0.1:1/orders"
							+ "?characterEncoding=utf8&autoReconnect=true&useSSL=true&multiStatements=true"
							+ "&sessionVariables=wait_timeout=28800&sessionVariables=max_execution_time=300000"
							+ "&password=t0p-s3cret",
					"spring.datasource.password=t0p-s3cret", "spring.datasource.hikari.minimum-idle=50",
					"spring.datasource.hikari.maximum-pool-size=100")
			.run((context) -> {
				List<Finding> findings = findings(context);
				assertThat(findings).extracting(Finding::id)
					.containsExactlyInAnyOrder(MySqlProtocolFindings.AUTO_RECONNECT.id(),
							MySqlProtocolFindings.IGNORED_PROPERTY.id());
				assertThat(findings)
					.allSatisfy((finding) -> assertThat(finding.toLogLine()).doesNotContain("t0p-s3cret"));
				assertThat(context.getBean(JdbcFeatureStatus.class).status().toString()).doesNotContain("t0p-s3cret");
			});
	}

	@Test
	void everyIdIsInTheCatalogue() {
		assertThat(FindingCatalogue.ids()).contains(MySqlProtocolFindings.SERVER_PREP_STMTS_OFF.id(),
				MySqlProtocolFindings.STMT_CACHE_OFF.id(), MySqlProtocolFindings.STMT_CACHE_SQL_LIMIT_LOW.id(),
				MySqlProtocolFindings.QUERY_TIMEOUTS_OFF.id(), MySqlProtocolFindings.LOCAL_SESSION_STATE.id(),
				MySqlProtocolFindings.AUTO_RECONNECT.id(), MySqlProtocolFindings.MULTI_QUERIES.id(),
				MySqlProtocolFindings.IGNORED_PROPERTY.id(), JdbcFindings.INFINITE_CONNECTION_TIMEOUT.id(),
				MySqlProtocolFindings.PREPARED_STMT_BUDGET.id());
	}

	@Test
	void aConnectorJPoolWithoutASocketTimeoutIsToldToSetOneNamingThePoolAndTheProperty() {
		this.withoutSocketTimeout.withPropertyValues("spring.datasource.url=" + MYSQL_URL)
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("jdbc.no-timeouts");
				assertThat(finding.severity()).isEqualTo(Severity.INFO);
				assertThat(finding.subject()).isEqualTo("orders");
				assertThat(finding.message()).contains("MySQL Connector/J's socketTimeout is 0", MYSQL_URL,
						"does not free it");
				assertThat(finding.fix()).contains("?socketTimeout=<ms>",
						"spring.datasource.hikari.data-source-properties.socketTimeout=<ms>",
						"schema migration run through this pool");
			}));
	}

	@Test
	void aMariaDbPoolWithoutASocketTimeoutIsToldToSetOne() {
		this.withoutSocketTimeout.withPropertyValues("spring.datasource.url=" + MARIADB_URL + "?useSsl=false")
			.run((context) -> assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("jdbc.no-timeouts");
				assertThat(finding.message()).contains("MariaDB Connector/J's socketTimeout is 0");
				assertThat(finding.fix()).contains("&socketTimeout=<ms>");
			}));
	}

	@Test
	void aSocketTimeoutInTheUrlOrTheDataSourcePropertiesIsABound() {
		this.withoutSocketTimeout.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?socketTimeout=30000")
			.run((context) -> assertThat(findings(context)).isEmpty());
		this.withoutSocketTimeout
			.withPropertyValues("spring.datasource.url=" + MARIADB_URL,
					"spring.datasource.hikari.data-source-properties.socketTimeout=30000")
			.run((context) -> assertThat(findings(context)).isEmpty());
		// MariaDB Connector/J reads its keys in any case.
		this.withoutSocketTimeout.withPropertyValues("spring.datasource.url=" + MARIADB_URL + "?sockettimeout=30000")
			.run((context) -> assertThat(findings(context)).isEmpty());
	}

	@Test
	void aSocketTimeoutOfZeroOrOneTheDriverIgnoresIsNoBound() {
		this.withoutSocketTimeout.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?socketTimeout=0")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactly("jdbc.no-timeouts"));
		// Connector/J's keys are case-sensitive: it ignores this one and waits for ever.
		this.withoutSocketTimeout.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?sockettimeout=30000")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactlyInAnyOrder("jdbc.no-timeouts", MySqlProtocolFindings.IGNORED_PROPERTY.id()));
	}

	@Test
	void aQueryTimeoutTheApplicationSetsIsNoBound() {
		// Measured in SocketTimeoutOnEmbeddedMariaDbTests: it never frees a thread whose
		// database stopped answering.
		this.withoutSocketTimeout
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL, "spring.transaction.default-timeout=30s",
					"spring.jdbc.template.query-timeout=30s")
			.run((context) -> assertThat(findings(context)).extracting(Finding::id)
				.containsExactly("jdbc.no-timeouts"));
	}

}
