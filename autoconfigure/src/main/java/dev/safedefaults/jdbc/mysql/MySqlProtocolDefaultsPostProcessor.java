package dev.safedefaults.jdbc.mysql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.HikariDefaultsPostProcessor;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.JdbcUrlForDisplay;
import dev.safedefaults.jdbc.PoolDefaultsReport;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Adds server-side prepared statements and a statement cache (and, for MySQL Connector/J,
 * {@code useConfigs=maxPerformance} with query timeouts kept on) to every Hikari pool
 * that uses MySQL Connector/J or MariaDB Connector/J, as data-source properties, unless
 * the user set the key, in any case, in the URL or in the data-source properties
 * (incident 5). A pool of another database is left alone, as are (by the skeleton,
 * {@link HikariDefaultsPostProcessor}) a pool that has already started and a pool
 * configured without a JDBC URL.
 */
public final class MySqlProtocolDefaultsPostProcessor extends HikariDefaultsPostProcessor {

	private final ObjectProvider<JdbcDefaultsProperties> properties;

	/**
	 * Creates the post-processor.
	 * @param properties the feature's properties, resolved when the first pool is seen
	 */
	public MySqlProtocolDefaultsPostProcessor(ObjectProvider<JdbcDefaultsProperties> properties) {
		this.properties = properties;
	}

	@Override
	protected PoolDefaultsReport apply(HikariDataSource pool, String beanName, Supplier<String> poolName,
			String jdbcUrl, String maskedUrl) {
		PoolDriverSettings settings = PoolDriverSettings.of(pool);
		if (settings == null) {
			return PoolDefaultsReport.leftAlone(beanName, poolName, maskedUrl, notMySqlProtocol(jdbcUrl));
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
			return PoolDefaultsReport.leftAlone(beanName, poolName, maskedUrl, STARTED_BEFORE);
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

}
