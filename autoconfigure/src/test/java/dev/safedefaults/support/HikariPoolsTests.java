package dev.safedefaults.support;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool behind what an application wraps it in is found, as Boot's
 * {@code DataSourceUnwrapper} finds it, and never started by the look-up.
 */
class HikariPoolsTests {

	@Test
	void aPoolBehindSpringsDelegatingDataSourcesAndAnAopProxyIsFoundWithoutStartingIt() {
		try (HikariDataSource pool = new HikariDataSource()) {
			pool.setJdbcUrl("jdbc:mariadb://127.0.0.1:1/never-connected");
			DataSource proxied = (DataSource) new ProxyFactory(pool).getProxy();
			for (DataSource wrapped : new DataSource[] { pool, new TransactionAwareDataSourceProxy(pool),
					new LazyConnectionDataSourceProxy(new TransactionAwareDataSourceProxy(pool)), proxied }) {
				assertThat(HikariPools.unwrap(wrapped)).as("%s", wrapped).isSameAs(pool);
			}
			assertThat(pool.isRunning()).as("the pool was never started").isFalse();
		}
	}

	@Test
	void aDataSourceWithoutAPoolHasNone() {
		assertThat(HikariPools.unwrap(new DriverManagerDataSource("jdbc:mariadb://127.0.0.1:1/x"))).isNull();
	}

}
