package dev.safedefaults.jdbc;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.SecretMasker;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;

/**
 * The skeleton of a post-processor that adds a driver's JDBC defaults to Hikari pools: it
 * sees every pool before initialization, leaves alone a pool that has already started and
 * one configured without a JDBC URL, asks the driver's subclass for the rest, and keeps
 * what was done to each pool for the feature's status ({@link PoolDefaultsReport}).
 * <p>
 * It runs before initialization with an {@link Ordered} order, so after Boot's
 * {@code spring.datasource.hikari.*} binding and its connection-details post-processor
 * (both {@code PriorityOrdered}), and before any post-processor wraps the pool. It never
 * calls {@code getConnection()}: Hikari starts a pool on its first
 * {@code getConnection()} and seals its configuration then.
 */
public abstract class HikariDefaultsPostProcessor implements BeanPostProcessor, Ordered {

	/** Why a pool that started before the defaults could be added is left alone. */
	protected static final String STARTED_BEFORE = "it was started before safe-defaults could configure it";

	private final List<PoolDefaultsReport> pools = new CopyOnWriteArrayList<>();

	@Override
	public final Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (bean instanceof HikariDataSource pool) {
			this.pools.add(apply(pool, beanName));
		}
		return bean;
	}

	private PoolDefaultsReport apply(HikariDataSource pool, String beanName) {
		Supplier<String> poolName = pool::getPoolName;
		String jdbcUrl = pool.getJdbcUrl();
		if (pool.getHikariPoolMXBean() != null || pool.isClosed()) {
			return PoolDefaultsReport.leftAlone(beanName, poolName, SecretMasker.maskUrl(jdbcUrl), STARTED_BEFORE);
		}
		if (jdbcUrl == null) {
			return PoolDefaultsReport.leftAlone(beanName, poolName, null,
					"it is configured without a JDBC URL (dataSourceClassName, DataSource or JNDI)");
		}
		return apply(pool, beanName, poolName, jdbcUrl, SecretMasker.maskUrl(jdbcUrl));
	}

	/**
	 * Adds the driver's defaults to a pool not started yet and configured with a JDBC
	 * URL, or says why it leaves the pool alone (another driver's pool, for example).
	 * @param pool the pool
	 * @param beanName its bean name
	 * @param poolName its current name (Hikari names an unnamed pool when it starts)
	 * @param jdbcUrl its URL
	 * @param maskedUrl its URL, masked
	 * @return what was done
	 */
	protected abstract PoolDefaultsReport apply(HikariDataSource pool, String beanName, Supplier<String> poolName,
			String jdbcUrl, String maskedUrl);

	/**
	 * What was done to each pool seen so far.
	 * @return one entry per pool, in the order they were created
	 */
	List<PoolDefaultsReport> pools() {
		return List.copyOf(this.pools);
	}

	@Override
	public final int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
