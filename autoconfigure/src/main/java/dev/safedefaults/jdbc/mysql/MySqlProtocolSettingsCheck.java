package dev.safedefaults.jdbc.mysql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;
import dev.safedefaults.jdbc.DriverSettingsCheck;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.PoolSettingsCheck;

import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.ALLOW_MULTI_QUERIES;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.AUTO_RECONNECT;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.CACHE_PREP_STMTS;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.ENABLE_QUERY_TIMEOUTS;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.PREP_STMT_CACHE_SIZE;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.PREP_STMT_CACHE_SQL_LIMIT;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.SOCKET_TIMEOUT;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.USE_LOCAL_SESSION_STATE;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.USE_SERVER_PREP_STMTS;

/**
 * The MySQL-protocol drivers' part of {@link PoolSettingsCheck}: the settings of a pool
 * whose driver is MySQL Connector/J or MariaDB Connector/J, read as its driver reads
 * them, for the traps of incident 5 and their neighbours: server prepares or the
 * statement cache off, a statement length limit too low to cache generated SQL, query
 * timeouts off, local session state with SQL that changes it, {@code autoReconnect},
 * {@code allowMultiQueries}, keys the driver ignores, and no socket timeout (issue 34:
 * the only bound on a query whose database stopped answering). It reads configuration
 * only: no I/O. Listed in {@code META-INF/spring.factories}.
 */
public final class MySqlProtocolSettingsCheck implements DriverSettingsCheck {

	/** Hints for keys that are known to be mistaken for another driver's, per driver. */
	private static final Map<MySqlProtocolDriver, Map<String, String>> HINTS = Map.of(MySqlProtocolDriver.CONNECTOR_J,
			Map.of("multistatements", "Connector/J only knows allowMultiQueries"), MySqlProtocolDriver.MARIADB,
			Map.of("useconfigs", "MariaDB Connector/J has no configuration bundles: set the options themselves",
					"prepstmtcachesqllimit", "MariaDB Connector/J caches statements of any length", "autoreconnect",
					"MariaDB Connector/J 3 does not reconnect; the pool replaces broken connections", "multistatements",
					"MariaDB Connector/J knows allowMultiQueries"));

	/**
	 * Checks one pool's MySQL-protocol driver settings.
	 * @param subject how findings name the pool
	 * @param pool the pool
	 * @return its findings, none for a pool of another driver
	 */
	@Override
	public List<Finding> check(String subject, HikariDataSource pool) {
		List<Finding> findings = new ArrayList<>();
		PoolDriverSettings settings = PoolDriverSettings.of(pool);
		if (settings == null) {
			return findings;
		}
		String url = settings.maskedUrl();
		boolean serverPrepares = settings.effectiveBoolean(USE_SERVER_PREP_STMTS).orElse(true);
		boolean cacheOn = settings.effectiveBoolean(CACHE_PREP_STMTS).orElse(true);
		OptionalInt cacheSize = settings.effectiveInt(PREP_STMT_CACHE_SIZE);
		boolean cacheOff = !cacheOn || (cacheSize.isPresent() && cacheSize.getAsInt() <= 0);
		String cacheKey = cacheOn ? PREP_STMT_CACHE_SIZE : CACHE_PREP_STMTS;
		String cacheRestore = "cachePrepStmts=true and prepStmtCacheSize (safe-defaults.jdbc.prep-stmt-cache-size)";
		boolean bothDriverDefaults = !settings.rewritesBatches()
				&& settings.origin(USE_SERVER_PREP_STMTS).equals(PoolDriverSettings.DRIVER_DEFAULT)
				&& settings.origin(cacheKey).equals(PoolDriverSettings.DRIVER_DEFAULT);
		if (!serverPrepares && cacheOff && bothDriverDefaults) {
			// One cause (the starter is off for this pool): one finding.
			findings.add(MySqlProtocolFindings.SERVER_PREP_STMTS_OFF_BECAUSE_STARTER_OFF.raise(subject, url,
					MySqlProtocolFindings.restore(PoolDriverSettings.DRIVER_DEFAULT, USE_SERVER_PREP_STMTS,
							"useServerPrepStmts=true and " + cacheRestore)));
		}
		else {
			if (!serverPrepares) {
				String why = settings.rewritesBatches()
						? "rewriteBatchedStatements=true turns them off in MariaDB Connector/J"
						: USE_SERVER_PREP_STMTS + "=" + settings.effective(USE_SERVER_PREP_STMTS).orElse("false") + ", "
								+ settings.origin(USE_SERVER_PREP_STMTS);
				findings.add(MySqlProtocolFindings.SERVER_PREP_STMTS_OFF.raise(subject, why, url,
						MySqlProtocolFindings.restore(settings.origin(USE_SERVER_PREP_STMTS), USE_SERVER_PREP_STMTS,
								"useServerPrepStmts=true")));
			}
			// MariaDB Connector/J's cache holds server prepares only: without them it
			// changes nothing.
			if (cacheOff && (serverPrepares || settings.driver() == MySqlProtocolDriver.CONNECTOR_J)) {
				String what = !cacheOn
						? CACHE_PREP_STMTS + "=" + settings.effective(CACHE_PREP_STMTS).orElse("false") + ", "
								+ settings.origin(CACHE_PREP_STMTS)
						: PREP_STMT_CACHE_SIZE + "=" + cacheSize.getAsInt() + ", "
								+ settings.origin(PREP_STMT_CACHE_SIZE);
				findings.add((serverPrepares ? MySqlProtocolFindings.STMT_CACHE_OFF
						: MySqlProtocolFindings.STMT_CACHE_OFF_BECAUSE_CLIENT_SIDE)
					.raise(subject, what, url,
							MySqlProtocolFindings.restore(settings.origin(cacheKey), cacheKey, cacheRestore)));
			}
		}
		if (settings.driver() == MySqlProtocolDriver.CONNECTOR_J) {
			checkConnectorJ(subject, settings, cacheOn, url, findings);
		}
		Optional<String> sessionChange = SessionStateSql.findChange(pool.getConnectionInitSql());
		if (settings.effectiveBoolean(USE_LOCAL_SESSION_STATE).orElse(false) && sessionChange.isPresent()) {
			findings.add(MySqlProtocolFindings.LOCAL_SESSION_STATE.raise(subject,
					settings.origin(USE_LOCAL_SESSION_STATE), sessionChange.get()));
		}
		OptionalInt socketTimeout = settings.effectiveInt(SOCKET_TIMEOUT);
		if (socketTimeout.isPresent() && socketTimeout.getAsInt() <= 0) {
			findings.add(MySqlProtocolFindings.NO_TIMEOUTS_ON_MYSQL_PROTOCOL.raise(subject, url,
					settings.driver().displayName(), String.valueOf(pool.getJdbcUrl()).contains("?") ? "&" : "?"));
		}
		if (settings.effectiveBoolean(ALLOW_MULTI_QUERIES).orElse(false)) {
			findings.add(MySqlProtocolFindings.MULTI_QUERIES.raise(subject, settings.origin(ALLOW_MULTI_QUERIES), url));
		}
		findings.addAll(ignoredProperties(subject, settings, PoolDriverSettings.driverClassLoader(pool)));
		return findings;
	}

	private static void checkConnectorJ(String subject, PoolDriverSettings settings, boolean cacheOn, String url,
			List<Finding> findings) {
		OptionalInt sqlLimit = settings.effectiveInt(PREP_STMT_CACHE_SQL_LIMIT);
		if (cacheOn && sqlLimit.isPresent()
				&& sqlLimit.getAsInt() < JdbcDefaultsProperties.MIN_PREP_STMT_CACHE_SQL_LIMIT) {
			String origin = settings.origin(PREP_STMT_CACHE_SQL_LIMIT);
			findings.add(MySqlProtocolFindings.STMT_CACHE_SQL_LIMIT_LOW.raise(subject, sqlLimit.getAsInt(), origin, url,
					MySqlProtocolFindings.restore(origin, PREP_STMT_CACHE_SQL_LIMIT,
							"prepStmtCacheSqlLimit=" + JdbcDefaultsProperties.MIN_PREP_STMT_CACHE_SQL_LIMIT
									+ " (safe-defaults.jdbc.prep-stmt-cache-sql-limit)")));
		}
		if (!settings.effectiveBoolean(ENABLE_QUERY_TIMEOUTS).orElse(true)) {
			findings.add(MySqlProtocolFindings.QUERY_TIMEOUTS_OFF.raise(subject, settings.origin(ENABLE_QUERY_TIMEOUTS),
					url));
		}
		if (settings.effectiveBoolean(AUTO_RECONNECT).orElse(false)) {
			findings.add(MySqlProtocolFindings.AUTO_RECONNECT.raise(subject, settings.origin(AUTO_RECONNECT), url));
		}
	}

	private static List<Finding> ignoredProperties(String subject, PoolDriverSettings settings,
			ClassLoader classLoader) {
		MySqlProtocolDriver driver = settings.driver();
		DriverPropertyNames names = driver.propertyNames(classLoader);
		List<Finding> findings = new ArrayList<>();
		settings.userKeys().forEach((key, where) -> {
			if (names.knows(key)) {
				return;
			}
			String hint = HINTS.getOrDefault(driver, Map.of()).get(key.toLowerCase(Locale.ROOT));
			if (hint == null) {
				hint = names.spellingOf(key)
					.map((spelled) -> "its property names are case-sensitive: it knows " + spelled)
					.orElse(null);
			}
			findings.add(MySqlProtocolFindings.IGNORED_PROPERTY.raise(subject, key, where, driver.displayName(),
					(hint != null) ? "; " + hint : ""));
		});
		return findings;
	}

}
