package dev.safedefaults.jdbc.mysql;

import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.JdbcFeatureStatus;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot 4.1's {@code spring.datasource.connection-fetch=lazy}: its
 * {@code LazyConnectionDataSourceBeanPostProcessor} replaces the pool bean, after
 * initialization, by a {@link LazyConnectionDataSourceProxy}. Reproduced here as Boot 4.1
 * does it, so the test runs on every supported Boot line (the 4.1 consumer build runs the
 * real thing): the defaults still reach the pool behind the proxy, and the checks still
 * find it.
 */
class LazyConnectionFetchTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SafeDefaultsAutoConfiguration.class,
				JdbcDefaultsAutoConfiguration.class, MySqlProtocolDefaultsAutoConfiguration.class,
				PostgreSqlChecksAutoConfiguration.class))
		.withUserConfiguration(LazyConnectionFetch.class)
		.withPropertyValues("spring.datasource.name=orders",
				"spring.datasource.url=" + JdbcDefaultsAutoConfigurationTests.MYSQL_URL,
				"safe-defaults.checks.disabled=jdbc.prepared-stmt-budget");

	@Test
	void theDefaultsReachThePoolBehindTheLazyProxy() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			DataSource bean = context.getBean(DataSource.class);
			assertThat(bean).isInstanceOf(LazyConnectionDataSourceProxy.class);
			HikariDataSource pool = bean.unwrap(HikariDataSource.class);
			assertThat(pool.getDataSourceProperties()).containsEntry("useServerPrepStmts", "true")
				.containsEntry("cachePrepStmts", "true");
			assertThat(pool.getHikariPoolMXBean()).as("the pool never started").isNull();
			assertThat(context.getBean(JdbcFeatureStatus.class).status().appliedTo()).singleElement()
				.asString()
				.contains("useServerPrepStmts");
		});
	}

	@Test
	void theChecksFindThePoolBehindTheLazyProxy() {
		this.runner.withPropertyValues("safe-defaults.jdbc.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed();
			List<String> ids = context.getBean(FindingsStore.class).findings().stream().map(Finding::id).toList();
			assertThat(ids).contains("jdbc.server-prep-stmts-off");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class LazyConnectionFetch {

		@Bean
		static BeanPostProcessor lazyConnectionDataSourceBeanPostProcessor() {
			return new WrapsDataSources();
		}

	}

	/** What Boot 4.1's LazyConnectionDataSourceBeanPostProcessor does. */
	static final class WrapsDataSources implements BeanPostProcessor, Ordered {

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			return (bean instanceof DataSource dataSource) ? new LazyConnectionDataSourceProxy(dataSource) : bean;
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}
