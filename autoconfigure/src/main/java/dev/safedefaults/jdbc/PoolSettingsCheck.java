package dev.safedefaults.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;

import org.springframework.beans.factory.ListableBeanFactory;

import static dev.safedefaults.jdbc.MySqlProtocolDriver.ALLOW_MULTI_QUERIES;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.AUTO_RECONNECT;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.CACHE_PREP_STMTS;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.ENABLE_QUERY_TIMEOUTS;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.PREP_STMT_CACHE_SIZE;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.PREP_STMT_CACHE_SQL_LIMIT;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.USE_LOCAL_SESSION_STATE;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.USE_SERVER_PREP_STMTS;

/**
 * Looks at the settings of every Hikari pool, as its driver reads them, for the traps of
 * incident 5 and their neighbours: server prepares or the statement cache off, a statement
 * length limit too low to cache generated SQL, query timeouts off, local session state with
 * SQL that changes it, {@code autoReconnect}, {@code allowMultiQueries}, keys the driver
 * ignores, and an infinite connection timeout. It reads configuration only: no I/O.
 */
final class PoolSettingsCheck implements Check {

	static final String SERVER_PREP_STMTS_OFF = "jdbc.server-prep-stmts-off";

	static final String STMT_CACHE_OFF = "jdbc.stmt-cache-off";

	static final String STMT_CACHE_SQL_LIMIT_LOW = "jdbc.stmt-cache-sql-limit-low";

	static final String QUERY_TIMEOUTS_OFF = "jdbc.query-timeouts-off";

	static final String LOCAL_SESSION_STATE = "jdbc.local-session-state";

	static final String AUTO_RECONNECT_ON = "jdbc.auto-reconnect";

	static final String MULTI_QUERIES = "jdbc.multi-queries";

	static final String IGNORED_PROPERTY = "jdbc.ignored-property";

	static final String INFINITE_CONNECTION_TIMEOUT = "jdbc.infinite-connection-timeout";

	/** Hints for keys that are known to be mistaken for another driver's, per driver. */
	private static final Map<MySqlProtocolDriver, Map<String, String>> HINTS = Map.of(MySqlProtocolDriver.CONNECTOR_J,
			Map.of("multistatements", "Connector/J only knows allowMultiQueries"), MySqlProtocolDriver.MARIADB,
			Map.of("useconfigs", "MariaDB Connector/J has no configuration bundles: set the options themselves",
					"prepstmtcachesqllimit", "MariaDB Connector/J caches statements of any length",
					"autoreconnect", "MariaDB Connector/J 3 does not reconnect; the pool replaces broken connections",
					"multistatements", "MariaDB Connector/J knows allowMultiQueries"));

	private final ListableBeanFactory beanFactory;

	PoolSettingsCheck(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		HikariPools.find(this.beanFactory)
			.forEach((beanName, pool) -> findings.addAll(check(HikariPools.subject(beanName, pool), pool)));
		return findings;
	}

	@Override
	public String name() {
		return "jdbc.pool-settings";
	}

	/**
	 * Checks one pool.
	 * @param subject how findings name the pool
	 * @param pool the pool
	 * @return its findings
	 */
	static List<Finding> check(String subject, HikariDataSource pool) {
		List<Finding> findings = new ArrayList<>();
		if (pool.getConnectionTimeout() >= Integer.MAX_VALUE) {
			// Hikari stores connectionTimeout=0 as Integer.MAX_VALUE ms: wait for ever.
			findings.add(Finding.warning(INFINITE_CONNECTION_TIMEOUT, subject,
					"connectionTimeout=0: a request waits for ever for a connection when the pool is exhausted or "
							+ "the database is unreachable, and threads pile up instead of failing fast.",
					"Set spring.datasource.hikari.connection-timeout to a few seconds (Hikari's default is 30s); "
							+ "silence with safe-defaults.checks.disabled=" + INFINITE_CONNECTION_TIMEOUT + "."));
		}
		PoolDriverSettings settings = HikariPools.settings(pool);
		if (settings == null) {
			return findings;
		}
		String url = settings.maskedUrl();
		boolean serverPrepares = settings.effectiveBoolean(USE_SERVER_PREP_STMTS).orElse(true);
		if (!serverPrepares) {
			String why = settings.rewritesBatches() ? "rewriteBatchedStatements=true turns them off in MariaDB Connector/J"
					: USE_SERVER_PREP_STMTS + "=" + settings.effective(USE_SERVER_PREP_STMTS).orElse("false") + ", "
							+ settings.origin(USE_SERVER_PREP_STMTS);
			findings.add(Finding.warning(SERVER_PREP_STMTS_OFF, subject, "Server-side prepared statements are off ("
					+ why + ") on " + url
					+ ": the database parses every statement again (incident 5: TiDB spent 20-30% more CPU on it).",
					restore(settings, USE_SERVER_PREP_STMTS, "useServerPrepStmts=true") + " Silence with "
							+ "safe-defaults.checks.disabled=" + SERVER_PREP_STMTS_OFF + "."));
		}
		boolean cacheOn = settings.effectiveBoolean(CACHE_PREP_STMTS).orElse(true);
		OptionalInt cacheSize = settings.effectiveInt(PREP_STMT_CACHE_SIZE);
		if (!cacheOn || (cacheSize.isPresent() && cacheSize.getAsInt() <= 0)) {
			String what = !cacheOn ? CACHE_PREP_STMTS + "=" + settings.effective(CACHE_PREP_STMTS).orElse("false")
					+ ", " + settings.origin(CACHE_PREP_STMTS)
					: PREP_STMT_CACHE_SIZE + "=" + cacheSize.getAsInt() + ", " + settings.origin(PREP_STMT_CACHE_SIZE);
			findings.add(Finding.warning(STMT_CACHE_OFF, subject, "The prepared statement cache is off (" + what
					+ ") on " + url + ": every statement is prepared again"
					+ (serverPrepares ? ", one extra round trip and server-side parse per execution." : "."),
					restore(settings, cacheOn ? PREP_STMT_CACHE_SIZE : CACHE_PREP_STMTS,
							"cachePrepStmts=true and prepStmtCacheSize (safe-defaults.jdbc.prep-stmt-cache-size)")
							+ " Silence with safe-defaults.checks.disabled=" + STMT_CACHE_OFF + "."));
		}
		if (settings.driver() == MySqlProtocolDriver.CONNECTOR_J) {
			checkConnectorJ(subject, settings, cacheOn, url, findings);
		}
		Optional<String> sessionChange = SessionStateSql.findChange(pool.getConnectionInitSql());
		if (settings.effectiveBoolean(USE_LOCAL_SESSION_STATE).orElse(false) && sessionChange.isPresent()) {
			findings.add(Finding.warning(LOCAL_SESSION_STATE, subject,
					"useLocalSessionState=true (" + settings.origin(USE_LOCAL_SESSION_STATE)
							+ ") while connectionInitSql runs '" + sessionChange.get()
							+ "': the driver never sees that change and works with the session state it remembers "
							+ "(isolation, read-only, autocommit, database).",
					"Set the state with the pool's own settings (spring.datasource.hikari.transaction-isolation, "
							+ "read-only, auto-commit, catalog) instead of SQL, or set useLocalSessionState=false. "
							+ "Silence with safe-defaults.checks.disabled=" + LOCAL_SESSION_STATE + "."));
		}
		if (settings.effectiveBoolean(ALLOW_MULTI_QUERIES).orElse(false)) {
			findings.add(Finding.warning(MULTI_QUERIES, subject,
					"allowMultiQueries=true (" + settings.origin(ALLOW_MULTI_QUERIES) + ") on " + url
							+ ": one SQL injection can append any statement ('; DROP TABLE ...').",
					"Remove allowMultiQueries=true and send statements one by one (or batch them). Silence with "
							+ "safe-defaults.checks.disabled=" + MULTI_QUERIES + "."));
		}
		findings.addAll(ignoredProperties(subject, settings, HikariPools.driverClassLoader(pool)));
		return findings;
	}

	private static void checkConnectorJ(String subject, PoolDriverSettings settings, boolean cacheOn, String url,
			List<Finding> findings) {
		OptionalInt sqlLimit = settings.effectiveInt(PREP_STMT_CACHE_SQL_LIMIT);
		if (cacheOn && sqlLimit.isPresent() && sqlLimit.getAsInt() < JdbcDefaultsProperties.MIN_PREP_STMT_CACHE_SQL_LIMIT) {
			findings.add(Finding.warning(STMT_CACHE_SQL_LIMIT_LOW, subject,
					"prepStmtCacheSqlLimit=" + sqlLimit.getAsInt() + " (" + settings.origin(PREP_STMT_CACHE_SQL_LIMIT)
							+ ") on " + url + ": statements longer than " + sqlLimit.getAsInt()
							+ " characters, such as those MyBatis generates, are never cached and are prepared again "
							+ "on every execution.",
					restore(settings, PREP_STMT_CACHE_SQL_LIMIT,
							"prepStmtCacheSqlLimit=" + JdbcDefaultsProperties.MIN_PREP_STMT_CACHE_SQL_LIMIT
									+ " (safe-defaults.jdbc.prep-stmt-cache-sql-limit)")
							+ " Silence with safe-defaults.checks.disabled=" + STMT_CACHE_SQL_LIMIT_LOW + "."));
		}
		if (!settings.effectiveBoolean(ENABLE_QUERY_TIMEOUTS).orElse(true)) {
			findings.add(Finding.warning(QUERY_TIMEOUTS_OFF, subject,
					"enableQueryTimeouts=false (" + settings.origin(ENABLE_QUERY_TIMEOUTS) + ") on " + url
							+ ": Statement.setQueryTimeout() and @Transactional(timeout) silently do nothing; a slow "
							+ "query holds its connection and thread for as long as it runs.",
					"Set enableQueryTimeouts=true (safe-defaults adds it next to useConfigs=maxPerformance). "
							+ "Silence with safe-defaults.checks.disabled=" + QUERY_TIMEOUTS_OFF + "."));
		}
		if (settings.effectiveBoolean(AUTO_RECONNECT).orElse(false)) {
			findings.add(Finding.warning(AUTO_RECONNECT_ON, subject,
					"autoReconnect=true (" + settings.origin(AUTO_RECONNECT) + ") on " + url
							+ ": after a lost connection the driver reconnects in the middle of a transaction, which "
							+ "silently loses the work before it and the session state (Connector/J's documentation "
							+ "advises against it).",
					"Remove autoReconnect=true: Hikari already replaces broken connections. Silence with "
							+ "safe-defaults.checks.disabled=" + AUTO_RECONNECT_ON + "."));
		}
	}

	/**
	 * How to get a starter default back: remove the user's setting, or switch the feature
	 * on again when the driver's default is in effect.
	 */
	private static String restore(PoolDriverSettings settings, String key, String starterSetting) {
		String origin = settings.origin(key);
		if (origin.equals("the driver's default")) {
			return "Let safe-defaults set " + starterSetting
					+ " (safe-defaults.jdbc.enabled=true, the default), or set it yourself.";
		}
		return "Remove " + key + " (" + origin + "): safe-defaults then sets " + starterSetting + ".";
	}

	private static List<Finding> ignoredProperties(String subject, PoolDriverSettings settings,
			ClassLoader classLoader) {
		MySqlProtocolDriver driver = settings.driver();
		MySqlProtocolDriver.PropertyNames names = driver.propertyNames(classLoader);
		List<Finding> findings = new ArrayList<>();
		settings.userKeys().forEach((key, where) -> {
			if (names.knows(key)) {
				return;
			}
			String hint = HINTS.get(driver).get(key.toLowerCase(Locale.ROOT));
			if (hint == null) {
				hint = names.spellingOf(key)
					.map((spelled) -> "its property names are case-sensitive: it knows " + spelled)
					.orElse(null);
			}
			findings.add(Finding.info(IGNORED_PROPERTY, subject,
					"'" + key + "' (in the " + where + ") is not a " + driver.displayName()
							+ " property: the driver silently ignores it" + ((hint != null) ? "; " + hint : "") + ".",
					"Remove it or use the driver's name for it. Silence with safe-defaults.checks.disabled="
							+ IGNORED_PROPERTY + "."));
		});
		return findings;
	}

}
