package dev.safedefaults.support;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfigMXBean;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.jdbc.DataSourceUnwrapper;

/**
 * Finds the application's Hikari pools, also behind wrappers that implement
 * {@link DataSource#unwrap}, without starting them, and names each: one look-up, on
 * Boot's {@link DataSourceUnwrapper}, for the JDBC feature's checks and the stuck-request
 * watch.
 */
public final class HikariPools {

	private HikariPools() {
	}

	/**
	 * Finds every Hikari pool among the singleton {@link DataSource} beans.
	 * @param beanFactory the bean factory
	 * @return bean name to pool, each pool once
	 */
	public static Map<String, HikariDataSource> find(ListableBeanFactory beanFactory) {
		Map<String, HikariDataSource> pools = new LinkedHashMap<>();
		Set<HikariDataSource> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		beanFactory.getBeansOfType(DataSource.class, false, true).forEach((name, dataSource) -> {
			HikariDataSource pool = unwrap(dataSource);
			if (pool != null && seen.add(pool)) {
				pools.put(name, pool);
			}
		});
		return pools;
	}

	/**
	 * The Hikari pool behind a data source, without starting it: Boot's
	 * {@link DataSourceUnwrapper} (JDBC wrappers, Spring's {@code DelegatingDataSource}s,
	 * AOP proxies).
	 * @param dataSource the data source
	 * @return the pool, or {@code null} when there is none
	 */
	public static @Nullable HikariDataSource unwrap(DataSource dataSource) {
		return DataSourceUnwrapper.unwrap(dataSource, HikariConfigMXBean.class, HikariDataSource.class);
	}

	/**
	 * How a finding or the watch names a pool: its pool name, else its bean name (Hikari
	 * names an unnamed pool only when it starts).
	 * @param beanName the bean name
	 * @param pool the pool
	 * @return the subject
	 */
	public static String subject(String beanName, HikariDataSource pool) {
		String poolName = pool.getPoolName();
		return (poolName != null && !poolName.isBlank()) ? poolName : beanName;
	}

}
