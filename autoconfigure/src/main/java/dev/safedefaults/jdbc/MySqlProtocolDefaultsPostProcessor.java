package dev.safedefaults.jdbc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.SecretMasker;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;

/**
 * Adds server-side prepared statements and a statement cache (and, for MySQL Connector/J,
 * {@code useConfigs=maxPerformance} with query timeouts kept on) to every Hikari pool
 * that uses MySQL Connector/J or MariaDB Connector/J, as data-source properties, unless
 * the user set the key, in any case, in the URL or in the data-source properties
 * (incident 5).
 * <p>
 * It runs before initialization with an {@link Ordered} order, so after Boot's
 * {@code spring.datasource.hikari.*} binding and its connection-details post-processor
 * (both {@code PriorityOrdered}), and before any post-processor wraps the pool. It never
 * calls {@code getConnection()}: Hikari starts a pool on its first
 * {@code getConnection()} and seals its configuration then. A pool that has already
 * started, a pool of another database and a pool configured without a JDBC URL are left
 * alone.
 */
public final class MySqlProtocolDefaultsPostProcessor implements BeanPostProcessor, Ordered {

	private final ObjectProvider<JdbcDefaultsProperties> properties;

	private final List<PoolDefaultsReport> pools = new CopyOnWriteArrayList<>();

	/**
	 * Creates the post-processor.
	 * @param properties the feature's properties, resolved when the first pool is seen
	 */
	public MySqlProtocolDefaultsPostProcessor(ObjectProvider<JdbcDefaultsProperties> properties) {
		this.properties = properties;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (bean instanceof HikariDataSource pool) {
			this.pools.add(apply(pool, beanName));
		}
		return bean;
	}

	private PoolDefaultsReport apply(HikariDataSource pool, String beanName) {
		Supplier<String> poolName = pool::getPoolName;
		String maskedUrl = SecretMasker.maskUrl(pool.getJdbcUrl());
		if (pool.getHikariPoolMXBean() != null || pool.isClosed()) {
			return PoolDefaultsReport.leftAlone(beanName, poolName, maskedUrl,
					"it was started before safe-defaults could configure it");
		}
		if (pool.getJdbcUrl() == null) {
			return PoolDefaultsReport.leftAlone(beanName, poolName, null,
					"it is configured without a JDBC URL (dataSourceClassName, DataSource or JNDI)");
		}
		PoolDriverSettings settings = HikariPools.settings(pool);
		if (settings == null) {
			return PoolDefaultsReport.leftAlone(beanName, poolName, maskedUrl, notMySqlProtocol(pool.getJdbcUrl()));
		}
		Map<String, String> defaults = settings.driver().defaults(this.properties.getObject());
		if (settings.driver() == MySqlProtocolDriver.CONNECTOR_J
				&& SessionStateSql.findChange(pool.getConnectionInitSql()).isPresent()) {
			// maxPerformance brings useLocalSessionState=true: the driver would never see
			// the
			// isolation, read-only or database change made by connectionInitSql.
			// Correctness
			// first: keep asking the server.
			defaults.put(MySqlProtocolDriver.USE_LOCAL_SESSION_STATE, "false");
		}
		Map<String, String> added = new LinkedHashMap<>();
		List<String> kept = new ArrayList<>();
		try {
			for (Map.Entry<String, String> setting : defaults.entrySet()) {
				if (settings.isSetByUser(setting.getKey())) {
					kept.add(setting.getKey());
				}
				else {
					pool.addDataSourceProperty(setting.getKey(), setting.getValue());
					added.put(setting.getKey(), setting.getValue());
				}
			}
		}
		catch (IllegalStateException ex) {
			// Sealed: another thread started the pool in the meantime.
			return PoolDefaultsReport.leftAlone(beanName, poolName, maskedUrl,
					"it was started before safe-defaults could configure it");
		}
		return PoolDefaultsReport.applied(beanName, poolName, maskedUrl, settings.driver().displayName(), added, kept);
	}

	/**
	 * Why a pool whose driver is not a MySQL-protocol one is left alone, naming its kind
	 * by its URL's scheme (never more of the URL).
	 * @param jdbcUrl the pool's URL
	 * @return the reason
	 */
	static String notMySqlProtocol(String jdbcUrl) {
		String scheme = JdbcUrlForDisplay.schemeOnly(jdbcUrl.strip());
		String kind = scheme.endsWith(":") ? scheme.substring(0, scheme.length() - 1) : "its URL";
		String checked = kind.equalsIgnoreCase("jdbc:postgresql")
				? "the Hikari settings and the sessions' timeouts are checked" : "only the Hikari settings are checked";
		return kind + " is not a MySQL-protocol pool (its driver is not MySQL Connector/J or MariaDB Connector/J): "
				+ "no JDBC default, " + checked;
	}

	/**
	 * What was done to each pool seen so far.
	 * @return one entry per pool, in the order they were created
	 */
	List<PoolDefaultsReport> pools() {
		return List.copyOf(this.pools);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
