package dev.safedefaults.jdbc.mysql;

import java.util.Map;
import java.util.Properties;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.JdbcFeatureStatus;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.PoolSettingsCheck;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The post-processor on pools that never start (nothing listens on port 1), so no server
 * is needed: what it adds, what it leaves, when, and the feature's status and switches.
 * The post-processor is the MySQL protocol's, on the jdbc root's skeleton
 * ({@code HikariDefaultsPostProcessor}, its {@code PoolDefaultsReport} per pool, and the
 * listed {@code DriverDefaults} that name the pools when the defaults are off). Covers
 * {@code MySqlProtocolDefaults}, this driver's {@code DriverDefaults} (with the defaults
 * off, a MySQL-protocol pool is said to be checked only, a pool of another driver left
 * alone and why), and {@code LibraryAbsentFeatureStatus} (without HikariCP, the status
 * says so).
 */
class JdbcDefaultsAutoConfigurationTests {

	static final String MYSQL_URL = "jdbc:mysql://127.0.0.1:1/app";

	static final String MARIADB_URL = "jdbc:mariadb://127.0.0.1:1/app";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	private static Properties driverProperties(AssertableApplicationContext context) {
		return context.getBean(HikariDataSource.class).getDataSourceProperties();
	}

	private static FeatureStatus status(AssertableApplicationContext context) {
		return context.getBean(FeatureStatusReporter.class).status();
	}

	@Test
	void registersThePostProcessorTheChecksAndTheStatusByDefault() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(MySqlProtocolDefaultsPostProcessor.class)
			.hasSingleBean(PoolSettingsCheck.class)
			.hasSingleBean(PreparedStatementBudgetCheck.class)
			.hasSingleBean(MaxLifetimeCheck.class)
			.hasSingleBean(AutocommitRoundTripsCheck.class)
			.hasSingleBean(JdbcFeatureStatus.class));
	}

	@Test
	void excludingTheRootAloneLeavesEachDriversDefaultsAndTheChecksThatReadNoSession() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
							MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
			.withPropertyValues("safe-defaults.checks.enabled=false", "spring.datasource.url=" + MYSQL_URL)
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(MySqlProtocolDefaultsPostProcessor.class)
				.hasSingleBean(AutocommitRoundTripsCheck.class)
				.doesNotHaveBean(PreparedStatementBudgetCheck.class)
				.doesNotHaveBean(MaxLifetimeCheck.class));
	}

	@Test
	void withoutHibernateThereIsNoAutocommitCheckAndTheOthersRemain() {
		this.runner.withClassLoader(new FilteredClassLoader("org.hibernate"))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(AutocommitRoundTripsCheck.class)
				.hasSingleBean(MaxLifetimeCheck.class)
				.hasSingleBean(PoolSettingsCheck.class));
	}

	@Test
	void withoutSpringOrmThereIsNoAutocommitCheck() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.orm"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(AutocommitRoundTripsCheck.class));
	}

	@Test
	void theAutocommitCheckFindsNothingWithoutAnEntityManagerFactory() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL)
			.run((context) -> assertThat(context.getBean(AutocommitRoundTripsCheck.class).run()).isEmpty());
	}

	@Test
	void addsTheConnectorJSettingsToAMySqlPool() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL)
			.run((context) -> assertThat(driverProperties(context)).containsExactlyInAnyOrderEntriesOf(Map.of(
					"useServerPrepStmts", "true", "cachePrepStmts", "true", "prepStmtCacheSize", "250",
					"prepStmtCacheSqlLimit", "2048", "useConfigs", "maxPerformance", "enableQueryTimeouts", "true")));
	}

	@Test
	void addsTheMariaDbSettingsToAMariaDbPool() {
		this.runner.withPropertyValues("spring.datasource.url=" + MARIADB_URL)
			.run((context) -> assertThat(driverProperties(context)).containsExactlyInAnyOrderEntriesOf(
					Map.of("useServerPrepStmts", "true", "cachePrepStmts", "true", "prepStmtCacheSize", "250")));
	}

	@Test
	void takesTheCacheSizeAndSqlLimitFromItsProperties() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL, "safe-defaults.jdbc.prep-stmt-cache-size=100",
					"safe-defaults.jdbc.prep-stmt-cache-sql-limit=4096")
			.run((context) -> assertThat(driverProperties(context)).containsEntry("prepStmtCacheSize", "100")
				.containsEntry("prepStmtCacheSqlLimit", "4096"));
	}

	@Test
	void aKeyTheUserSetInTheUrlWinsInAnyCase() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL + "?USESERVERPREPSTMTS=false&useConfigs=")
			.run((context) -> assertThat(driverProperties(context))
				.doesNotContainKeys("useServerPrepStmts", "useConfigs")
				.containsEntry("cachePrepStmts", "true"));
	}

	@Test
	void aKeyTheUserSetInTheDataSourcePropertiesWins() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL,
					"spring.datasource.hikari.data-source-properties.cachePrepStmts=false",
					"spring.datasource.hikari.data-source-properties.prepstmtcachesize=10")
			.run((context) -> assertThat(driverProperties(context)).containsEntry("cachePrepStmts", "false")
				.containsEntry("prepstmtcachesize", "10")
				.doesNotContainKey("prepStmtCacheSize")
				.containsEntry("useServerPrepStmts", "true"));
	}

	@Test
	void aKeyTheUserSetWinsWithMariaDbToo() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MARIADB_URL + "?useServerPrepStmts=false",
					"spring.datasource.hikari.data-source-properties.prepStmtCacheSize=50")
			.run((context) -> assertThat(driverProperties(context)).doesNotContainKey("useServerPrepStmts")
				.containsEntry("prepStmtCacheSize", "50")
				.containsEntry("cachePrepStmts", "true"));
	}

	@Test
	void anH2PoolIsLeftAlone() {
		this.runner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:left-alone").run((context) -> {
			assertThat(driverProperties(context)).isEmpty();
			assertThat(status(context).reason()).contains("left alone", "not MySQL Connector/J or MariaDB Connector/J");
		});
	}

	@Test
	void aPostgreSqlPoolIsLeftAlone() {
		this.runner.withPropertyValues("spring.datasource.url=jdbc:postgresql://127.0.0.1:1/app")
			.run((context) -> assertThat(driverProperties(context)).isEmpty());
	}

	@Test
	void neverStartsThePool() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL, "safe-defaults.checks.enabled=true")
			.run((context) -> assertThat(context.getBean(HikariDataSource.class).getHikariPoolMXBean()).isNull());
	}

	@Test
	void runsAfterBootHasBoundTheHikariProperties() {
		// DataSourceAutoConfiguration creates the pool with the H2 URL; binding
		// spring.datasource.hikari.* then makes it a MySQL pool.
		this.runner
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:bound",
					"spring.datasource.hikari.jdbc-url=" + MYSQL_URL,
					"spring.datasource.hikari.driver-class-name=com.mysql.cj.jdbc.Driver")
			.run((context) -> assertThat(driverProperties(context)).containsEntry("useServerPrepStmts", "true"));
	}

	@Test
	void runsAfterBootHasAppliedTheConnectionDetails() {
		// Binding sets the H2 URL; Boot's connection-details post-processor then puts the
		// MySQL URL of the JdbcConnectionDetails bean back.
		this.runner.withUserConfiguration(MySqlConnectionDetailsConfiguration.class)
			.withPropertyValues("spring.datasource.hikari.jdbc-url=jdbc:h2:mem:details")
			.run((context) -> {
				assertThat(context.getBean(HikariDataSource.class).getJdbcUrl()).isEqualTo(MYSQL_URL);
				assertThat(driverProperties(context)).containsEntry("useServerPrepStmts", "true");
			});
	}

	@Test
	void keepsLocalSessionStateOffWhenConnectionInitSqlChangesIt() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL,
				"spring.datasource.hikari.connection-init-sql=SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED")
			.run((context) -> assertThat(driverProperties(context)).containsEntry("useLocalSessionState", "false")
				.containsEntry("useConfigs", "maxPerformance"));
	}

	@Test
	void harmlessConnectionInitSqlKeepsMaxPerformanceWhole() {
		this.runner
			.withPropertyValues("spring.datasource.url=" + MYSQL_URL,
					"spring.datasource.hikari.connection-init-sql=SET NAMES utf8mb4")
			.run((context) -> assertThat(driverProperties(context)).doesNotContainKey("useLocalSessionState"));
	}

	@Test
	void statusListsWhatWasAddedToEachPoolWithTheUrlMasked() {
		this.runner.withPropertyValues("spring.datasource.url=jdbc:mysql://app:s3cr3t@127.0.0.1:1/app?password=s3cr3t",
				"spring.datasource.name=orders", "spring.datasource.hikari.data-source-properties.cachePrepStmts=true")
			.run((context) -> {
				FeatureStatus status = status(context);
				assertThat(status.feature()).isEqualTo("jdbc");
				assertThat(status.enabled()).isTrue();
				assertThat(status.appliedTo()).singleElement()
					.asString()
					.startsWith("orders (MySQL Connector/J, jdbc:mysql://127.0.0.1:1/app?******)")
					.contains("added useServerPrepStmts=true", "useConfigs=maxPerformance", "kept your cachePrepStmts")
					.doesNotContain("s3cr3t");
				assertThat(status.reason()).isNull();
			});
	}

	@Test
	void statusSaysSoWhenThereIsNoPool() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
							MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
			.run((context) -> assertThat(status(context).reason()).isEqualTo("no Hikari pool in this application"));
	}

	@Test
	void disabledLeavesPoolsAsConfiguredAndKeepsTheChecks() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL, "safe-defaults.jdbc.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(MySqlProtocolDefaultsPostProcessor.class)
					.hasSingleBean(PoolSettingsCheck.class)
					.hasSingleBean(PreparedStatementBudgetCheck.class);
				assertThat(driverProperties(context)).isEmpty();
				FeatureStatus status = status(context);
				assertThat(status.enabled()).isFalse();
				assertThat(status.reason()).contains("safe-defaults.jdbc.enabled=false");
				// The startup line's scope: a pool whose driver's defaults were switched
				// off, still checked.
				assertThat(status.scope()).endsWith(": checks only");
			});
	}

	@Test
	void withTheDefaultsOffAPoolOfAnotherDriverIsNamedLeftAloneWithWhatIsStillChecked() {
		this.runner
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:defaults-off", "spring.datasource.name=orders",
					"safe-defaults.jdbc.enabled=false")
			.run((context) -> assertThat(status(context).scope())
				.isEqualTo("orders: left alone, jdbc:h2 is not a MySQL-protocol pool (its driver is not MySQL "
						+ "Connector/J or MariaDB Connector/J): no JDBC default, only the Hikari settings are checked"));
	}

	@Test
	void withoutHikariOnlyTheStatusRemainsAndSaysWhy() {
		this.runner.withClassLoader(new FilteredClassLoader(HikariDataSource.class)).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(MySqlProtocolDefaultsPostProcessor.class)
				.doesNotHaveBean(PoolSettingsCheck.class)
				.doesNotHaveBean(MaxLifetimeCheck.class)
				.doesNotHaveBean(AutocommitRoundTripsCheck.class);
			FeatureStatus status = status(context);
			assertThat(status.enabled()).isFalse();
			assertThat(status.reason()).isEqualTo("HikariCP is not on the class path");
		});
	}

	@Test
	void theMasterSwitchRemovesEverything() {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL, "safe-defaults.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(MySqlProtocolDefaultsPostProcessor.class)
					.doesNotHaveBean(FeatureStatusReporter.class)
					.doesNotHaveBean(JdbcDefaultsProperties.class);
				assertThat(driverProperties(context)).isEmpty();
			});
	}

	@Test
	void aCacheSizeOutOfRangeFailsStartupNamingPropertyValueAndRange() {
		assertInvalid("safe-defaults.jdbc.prep-stmt-cache-size", "0", "from 1 to 16382");
		assertInvalid("safe-defaults.jdbc.prep-stmt-cache-size", "20000", "from 1 to 16382");
	}

	@Test
	void aSqlLimitOutOfRangeFailsStartupNamingPropertyValueAndRange() {
		assertInvalid("safe-defaults.jdbc.prep-stmt-cache-sql-limit", "256", "from 2048 to 1048576");
	}

	@Test
	void expectedInstancesOutOfRangeFailStartupNamingPropertyValueAndRange() {
		assertInvalid("safe-defaults.jdbc.expected-instances", "0", "from 1 to 10000");
	}

	@Test
	void anInvalidValueFailsStartupEvenWithoutAPool() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
							MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
			.withPropertyValues("safe-defaults.jdbc.expected-instances=-1")
			.run((context) -> assertThat(context).hasFailed());
	}

	private void assertInvalid(String property, String value, String range) {
		this.runner.withPropertyValues("spring.datasource.url=" + MYSQL_URL, property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
					assertThat(ex.getName()).isEqualTo(property);
					assertThat(ex.getValue()).hasToString(value);
					assertThat(ex.getReason()).contains(range);
				});
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class MySqlConnectionDetailsConfiguration {

		@Bean
		JdbcConnectionDetails jdbcConnectionDetails() {
			return new JdbcConnectionDetails() {

				@Override
				public String getUsername() {
					return "app";
				}

				@Override
				public String getPassword() {
					return "secret";
				}

				@Override
				public String getJdbcUrl() {
					return MYSQL_URL;
				}

			};
		}

	}

}
