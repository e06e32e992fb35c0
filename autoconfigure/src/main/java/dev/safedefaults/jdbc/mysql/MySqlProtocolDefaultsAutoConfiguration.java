package dev.safedefaults.jdbc.mysql;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.PoolServerVariables;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * JDBC defaults for MySQL-protocol Hikari pools (incident 5): server-side prepared
 * statements, a statement cache, and for MySQL Connector/J
 * {@code useConfigs=maxPerformance} with query timeouts kept on; off with
 * {@code safe-defaults.jdbc.enabled=false}, which leaves the checks on. And the checks
 * only a MySQL-protocol pool needs: the server's prepared-statement budget, and, with
 * Hibernate, the auto-commit round trips. Their settings checks and {@code wait_timeout}
 * are parts of the feature's shared checks, listed in {@code META-INF/spring.factories}.
 * After {@link JdbcDefaultsAutoConfiguration}, whose session readings it shares (the
 * checks that read a session are absent when that one is excluded).
 */
@AutoConfiguration(after = JdbcDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = "com.zaxxer.hikari.HikariDataSource")
@EnableConfigurationProperties(JdbcDefaultsProperties.class)
public final class MySqlProtocolDefaultsAutoConfiguration {

	@Bean
	@ConditionalOnBooleanProperty(name = JdbcDefaultsAutoConfiguration.ENABLED_PROPERTY, matchIfMissing = true)
	static MySqlProtocolDefaultsPostProcessor safeDefaultsMySqlProtocolDefaultsPostProcessor(
			ObjectProvider<JdbcDefaultsProperties> properties) {
		return new MySqlProtocolDefaultsPostProcessor(properties);
	}

	@Bean
	@ConditionalOnBean(PoolServerVariables.class)
	PreparedStatementBudgetCheck safeDefaultsJdbcPreparedStatementBudgetCheck(ListableBeanFactory beanFactory,
			JdbcDefaultsProperties properties, PoolServerVariables serverVariables) {
		return new PreparedStatementBudgetCheck(beanFactory, properties, serverVariables);
	}

	/**
	 * Hibernate on a MySQL-protocol Hikari pool: the auto-commit round trips. Evaluated
	 * from the class file, so no Hibernate or Spring ORM class is loaded when they are
	 * absent.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.hibernate.engine.spi.SessionFactoryImplementor",
			"org.springframework.orm.jpa.EntityManagerFactoryInfo" })
	static class HibernateOnHikariConfiguration {

		@Bean
		AutocommitRoundTripsCheck safeDefaultsJdbcAutocommitRoundTripsCheck(ListableBeanFactory beanFactory) {
			return new AutocommitRoundTripsCheck(beanFactory);
		}

	}

}
