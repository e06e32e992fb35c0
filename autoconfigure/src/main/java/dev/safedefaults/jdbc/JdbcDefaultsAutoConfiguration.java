package dev.safedefaults.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.LibraryAbsentFeatureStatus;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * JDBC defaults for MySQL-protocol Hikari pools (incident 5): server-side prepared
 * statements, a statement cache, and for MySQL Connector/J
 * {@code useConfigs=maxPerformance} with query timeouts kept on; and the checks for the
 * settings that undo them. Off with {@code safe-defaults.jdbc.enabled=false}, which
 * leaves the checks on.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(JdbcDefaultsProperties.class)
public final class JdbcDefaultsAutoConfiguration {

	@Bean
	@ConditionalOnMissingClass("com.zaxxer.hikari.HikariDataSource")
	FeatureStatusReporter safeDefaultsJdbcFeatureStatus() {
		return new LibraryAbsentFeatureStatus(JdbcFeatureStatusReporter.FEATURE, "HikariCP is not on the class path");
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HikariDataSource.class)
	static class HikariPoolsConfiguration {

		@Bean
		@ConditionalOnBooleanProperty(name = "safe-defaults.jdbc.enabled", matchIfMissing = true)
		static MySqlProtocolDefaultsPostProcessor safeDefaultsMySqlProtocolDefaultsPostProcessor(
				ObjectProvider<JdbcDefaultsProperties> properties) {
			return new MySqlProtocolDefaultsPostProcessor(properties);
		}

		@Bean
		static PreparedStatementErrors safeDefaultsJdbcPreparedStatementErrors(ObjectProvider<FindingsStore> store) {
			return new PreparedStatementErrors(store);
		}

		@Bean
		JdbcFeatureStatusReporter safeDefaultsJdbcFeatureStatus(JdbcDefaultsProperties properties,
				ObjectProvider<MySqlProtocolDefaultsPostProcessor> postProcessor, ListableBeanFactory beanFactory) {
			return new JdbcFeatureStatusReporter(properties, postProcessor, beanFactory);
		}

		@Bean
		PoolSettingsCheck safeDefaultsJdbcPoolSettingsCheck(ListableBeanFactory beanFactory) {
			return new PoolSettingsCheck(beanFactory);
		}

		@Bean
		PoolServerVariables safeDefaultsJdbcPoolServerVariables() {
			return new PoolServerVariables();
		}

		@Bean
		PreparedStatementBudgetCheck safeDefaultsJdbcPreparedStatementBudgetCheck(ListableBeanFactory beanFactory,
				JdbcDefaultsProperties properties, PoolServerVariables serverVariables) {
			return new PreparedStatementBudgetCheck(beanFactory, properties, serverVariables);
		}

		@Bean
		MaxLifetimeCheck safeDefaultsJdbcMaxLifetimeCheck(ListableBeanFactory beanFactory,
				PoolServerVariables serverVariables) {
			return new MaxLifetimeCheck(beanFactory, serverVariables);
		}

		@Bean
		PostgreSqlTimeoutsCheck safeDefaultsJdbcPostgreSqlTimeoutsCheck(ListableBeanFactory beanFactory,
				PoolServerVariables serverVariables) {
			return new PostgreSqlTimeoutsCheck(beanFactory, serverVariables);
		}

		@Bean
		PreparedStatementsBehindPoolerCheck safeDefaultsJdbcPreparedStatementsBehindPoolerCheck(
				ListableBeanFactory beanFactory, PoolServerVariables serverVariables) {
			return new PreparedStatementsBehindPoolerCheck(beanFactory, serverVariables);
		}

	}

	/**
	 * Hibernate on a Hikari pool: the auto-commit round trips. Evaluated from the class
	 * file, so no Hibernate or Spring ORM class is loaded when they are absent.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(
			name = { "com.zaxxer.hikari.HikariDataSource", "org.hibernate.engine.spi.SessionFactoryImplementor",
					"org.springframework.orm.jpa.EntityManagerFactoryInfo" })
	static class HibernateOnHikariConfiguration {

		@Bean
		AutocommitRoundTripsCheck safeDefaultsJdbcAutocommitRoundTripsCheck(ListableBeanFactory beanFactory) {
			return new AutocommitRoundTripsCheck(beanFactory);
		}

		@Bean
		PostgreSqlBatchRewriteCheck safeDefaultsJdbcPostgreSqlBatchRewriteCheck(ListableBeanFactory beanFactory) {
			return new PostgreSqlBatchRewriteCheck(beanFactory);
		}

	}

}
