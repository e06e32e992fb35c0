package dev.safedefaults.jdbc.postgresql;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.PoolServerVariables;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The checks only a PostgreSQL pool needs (issue 23), none of which changes a pool: its
 * sessions' timeouts, pgjdbc's server-side prepared statements behind a connection pooler
 * (after startup, and counted at run time), and, with Hibernate, batches pgjdbc does not
 * rewrite. Its {@code idle_session_timeout} is a part of the feature's shared
 * {@code jdbc.max-lifetime} check, listed in {@code META-INF/spring.factories}. After
 * {@link JdbcDefaultsAutoConfiguration}, whose session readings it shares (the checks
 * that read a session are absent when that one is excluded).
 */
@AutoConfiguration(after = JdbcDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = "com.zaxxer.hikari.HikariDataSource")
@EnableConfigurationProperties(JdbcDefaultsProperties.class)
public final class PostgreSqlChecksAutoConfiguration {

	@Bean
	static PreparedStatementErrors safeDefaultsJdbcPreparedStatementErrors(ObjectProvider<FindingsStore> store) {
		return new PreparedStatementErrors(store);
	}

	@Bean
	@ConditionalOnBean(PoolServerVariables.class)
	PostgreSqlTimeoutsCheck safeDefaultsJdbcPostgreSqlTimeoutsCheck(ListableBeanFactory beanFactory,
			PoolServerVariables serverVariables) {
		return new PostgreSqlTimeoutsCheck(beanFactory, serverVariables);
	}

	@Bean
	@ConditionalOnBean(PoolServerVariables.class)
	PreparedStatementsBehindPoolerCheck safeDefaultsJdbcPreparedStatementsBehindPoolerCheck(
			ListableBeanFactory beanFactory, PoolServerVariables serverVariables) {
		return new PreparedStatementsBehindPoolerCheck(beanFactory, serverVariables);
	}

	/**
	 * Hibernate on a PostgreSQL Hikari pool: batched inserts pgjdbc does not rewrite.
	 * Evaluated from the class file, so no Hibernate or Spring ORM class is loaded when
	 * they are absent.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "org.hibernate.engine.spi.SessionFactoryImplementor",
			"org.springframework.orm.jpa.EntityManagerFactoryInfo" })
	static class HibernateOnHikariConfiguration {

		@Bean
		PostgreSqlBatchRewriteCheck safeDefaultsJdbcPostgreSqlBatchRewriteCheck(ListableBeanFactory beanFactory) {
			return new PostgreSqlBatchRewriteCheck(beanFactory);
		}

	}

}
