package dev.safedefaults.jdbc.mysql;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import org.jspecify.annotations.Nullable;

/**
 * What safe-defaults knows about the two MySQL-protocol drivers: how to recognise a pool
 * that uses them, the settings it adds, how each driver reads its settings (which of URL
 * and properties wins, whether keys are case-sensitive, how it parses a boolean) and,
 * read from the driver itself, its own defaults and which property names it knows
 * ({@link DriverPropertyNames}). Facts checked in the sources of MySQL Connector/J 9.7.0
 * and MariaDB Connector/J 3.5.10. The reading rules are copies: the drivers apply them
 * only inside {@code getPropertyInfo} or {@code connect} on a pool's own URL, which
 * safe-defaults never passes them (see {@link #driverDefaults}); PoolDriverSettingsTests
 * compares the copies with the drivers' answers.
 */
enum MySqlProtocolDriver {

	/**
	 * MySQL Connector/J ({@code com.mysql.cj.jdbc.Driver}); TiDB uses it too. Properties
	 * passed to the driver override URL parameters; keys are case-sensitive (but for
	 * host, port, user, password and a few more); {@code useConfigs} bundles fill in what
	 * is not set.
	 */
	CONNECTOR_J("MySQL Connector/J", "com.mysql.cj.jdbc.Driver", false, true) {

		@Override
		Map<String, String> defaults(JdbcDefaultsProperties properties) {
			Map<String, String> defaults = serverPreparedStatements(properties);
			defaults.put(PREP_STMT_CACHE_SQL_LIMIT, String.valueOf(properties.getPrepStmtCacheSqlLimit()));
			// Incident 5: without it Connector/J asks the server for the session's
			// read-only state before every update sent with execute() (as MyBatis does).
			defaults.put(USE_CONFIGS, "maxPerformance");
			// maxPerformance turns query timeouts off: Statement.setQueryTimeout() and
			// @Transactional(timeout) would silently stop working. Explicit keys win
			// over it.
			defaults.put(ENABLE_QUERY_TIMEOUTS, "true");
			return defaults;
		}

		@Override
		Optional<Boolean> parseBoolean(String value) {
			// BooleanPropertyDefinition: TRUE, FALSE, YES, NO, any case.
			return switch (value.trim().toLowerCase(Locale.ROOT)) {
				case "true", "yes" -> Optional.of(true);
				case "false", "no" -> Optional.of(false);
				default -> Optional.empty();
			};
		}

		@Override
		Map<String, String> driverDefaults(ClassLoader classLoader) {
			// PropertyDefinitions.getPropertyDefinition(PropertyKey).getDefaultValue(),
			// public API; the same values as Driver.getPropertyInfo() for a URL without
			// settings (9.7.0), without loading the driver class, which starts a thread.
			try {
				Class<?> keys = Class.forName("com.mysql.cj.conf.PropertyKey", false, classLoader);
				Method fromValue = keys.getMethod("fromValue", String.class);
				Method definition = Class.forName("com.mysql.cj.conf.PropertyDefinitions", true, classLoader)
					.getMethod("getPropertyDefinition", keys);
				Method defaultValue = Class.forName("com.mysql.cj.conf.PropertyDefinition", false, classLoader)
					.getMethod("getDefaultValue");
				Map<String, String> defaults = new HashMap<>();
				for (String key : DEFAULTED_KEYS) {
					Object propertyKey = fromValue.invoke(null, key);
					Object value = (propertyKey != null) ? defaultValue.invoke(definition.invoke(null, propertyKey))
							: null;
					if (value != null) {
						defaults.put(key, value.toString());
					}
				}
				return defaults;
			}
			catch (ReflectiveOperationException | LinkageError | RuntimeException ex) {
				return Map.of();
			}
		}

		@Override
		DriverPropertyNames propertyNames(ClassLoader classLoader) {
			return DriverPropertyNames.ofConnectorJ(classLoader);
		}

	},

	/**
	 * MariaDB Connector/J ({@code org.mariadb.jdbc.Driver}). URL parameters override the
	 * properties; keys are case-insensitive; it has no configuration bundles and no
	 * statement length limit, and {@code rewriteBatchedStatements=true} turns server
	 * prepares off.
	 */
	MARIADB("MariaDB Connector/J", "org.mariadb.jdbc.Driver", true, false) {

		@Override
		Map<String, String> defaults(JdbcDefaultsProperties properties) {
			return serverPreparedStatements(properties);
		}

		@Override
		Optional<Boolean> parseBoolean(String value) {
			// Configuration.handleBooleanField: "", 1, true, 0, false.
			return switch (value.toLowerCase(Locale.ROOT)) {
				case "", "1", "true" -> Optional.of(true);
				case "0", "false" -> Optional.of(false);
				default -> Optional.empty();
			};
		}

		@Override
		Map<String, String> driverDefaults(ClassLoader classLoader) {
			// Driver.getPropertyInfo() for a URL without settings reports every option's
			// default, without connecting (3.5.10): the values of its Configuration.
			// Options it does not have (prepStmtCacheSqlLimit, enableQueryTimeouts,
			// autoReconnect) have no default.
			try {
				Map<String, String> defaults = new HashMap<>();
				for (DriverPropertyInfo info : DriverPropertyNames.mariaDbOptions(this.driverClassName, classLoader)) {
					if (info.value != null && DEFAULTED_KEYS.contains(info.name)) {
						defaults.putIfAbsent(info.name, info.value);
					}
				}
				return defaults;
			}
			catch (ReflectiveOperationException | LinkageError | SQLException | RuntimeException ex) {
				return Map.of();
			}
		}

		@Override
		DriverPropertyNames propertyNames(ClassLoader classLoader) {
			return DriverPropertyNames.ofMariaDb(this.driverClassName, classLoader);
		}

	};

	static final String USE_SERVER_PREP_STMTS = "useServerPrepStmts";

	static final String CACHE_PREP_STMTS = "cachePrepStmts";

	static final String PREP_STMT_CACHE_SIZE = "prepStmtCacheSize";

	static final String PREP_STMT_CACHE_SQL_LIMIT = "prepStmtCacheSqlLimit";

	static final String USE_CONFIGS = "useConfigs";

	static final String ENABLE_QUERY_TIMEOUTS = "enableQueryTimeouts";

	static final String USE_LOCAL_SESSION_STATE = "useLocalSessionState";

	static final String AUTO_RECONNECT = "autoReconnect";

	static final String ALLOW_MULTI_QUERIES = "allowMultiQueries";

	static final String REWRITE_BATCHED_STATEMENTS = "rewriteBatchedStatements";

	/** Milliseconds a read may wait for the server, in both drivers; 0 waits for ever. */
	static final String SOCKET_TIMEOUT = "socketTimeout";

	/** The settings whose driver default the checks look at. */
	private static final Set<String> DEFAULTED_KEYS = Set.of(USE_SERVER_PREP_STMTS, CACHE_PREP_STMTS,
			PREP_STMT_CACHE_SIZE, PREP_STMT_CACHE_SQL_LIMIT, ENABLE_QUERY_TIMEOUTS, USE_LOCAL_SESSION_STATE,
			AUTO_RECONNECT, ALLOW_MULTI_QUERIES, REWRITE_BATCHED_STATEMENTS, SOCKET_TIMEOUT);

	private final String displayName;

	final String driverClassName;

	private final boolean caseInsensitiveKeys;

	private final boolean propertiesWinOverUrl;

	MySqlProtocolDriver(String displayName, String driverClassName, boolean caseInsensitiveKeys,
			boolean propertiesWinOverUrl) {
		this.displayName = displayName;
		this.driverClassName = driverClassName;
		this.caseInsensitiveKeys = caseInsensitiveKeys;
		this.propertiesWinOverUrl = propertiesWinOverUrl;
	}

	/**
	 * Recognises the driver of a pool: its driver class name when set, otherwise the URL.
	 * A pool whose driver class is another one (a proxy driver such as P6Spy, a wrapper)
	 * is not recognised: its properties may not reach a MySQL-protocol driver unchanged.
	 * @param driverClassName the pool's driver class name, may be {@code null}
	 * @param jdbcUrl the pool's URL, may be {@code null}
	 * @return the driver, or empty when the pool does not use one of the two
	 */
	static Optional<MySqlProtocolDriver> detect(@Nullable String driverClassName, @Nullable String jdbcUrl) {
		if (driverClassName != null && !driverClassName.isBlank()) {
			return switch (driverClassName.trim()) {
				case "com.mysql.cj.jdbc.Driver", "com.mysql.jdbc.Driver", "com.mysql.cj.jdbc.NonRegisteringDriver" ->
					Optional.of(CONNECTOR_J);
				case "org.mariadb.jdbc.Driver" -> Optional.of(MARIADB);
				default -> Optional.empty();
			};
		}
		if (jdbcUrl == null) {
			return Optional.empty();
		}
		String url = jdbcUrl.trim().toLowerCase(Locale.ROOT);
		if (url.startsWith("jdbc:mariadb:")) {
			return Optional.of(MARIADB);
		}
		if (url.startsWith("jdbc:mysql:") || url.startsWith("jdbc:mysql+srv:")) {
			// MariaDB Connector/J takes jdbc:mysql: URLs only when they say
			// permitMysqlScheme.
			return Optional.of(url.contains("permitmysqlscheme") ? MARIADB : CONNECTOR_J);
		}
		return Optional.empty();
	}

	/**
	 * The settings safe-defaults adds to a pool of this driver, in order.
	 * @param properties the feature's properties
	 * @return key to value
	 */
	abstract Map<String, String> defaults(JdbcDefaultsProperties properties);

	/**
	 * What both drivers get (incident 5): server-side prepared statements and a cache of
	 * them per connection, under the same keys.
	 * @param properties the feature's properties
	 * @return key to value, in order, for the driver to add its own settings to
	 */
	private static Map<String, String> serverPreparedStatements(JdbcDefaultsProperties properties) {
		Map<String, String> defaults = new LinkedHashMap<>();
		defaults.put(USE_SERVER_PREP_STMTS, "true");
		defaults.put(CACHE_PREP_STMTS, "true");
		defaults.put(PREP_STMT_CACHE_SIZE, String.valueOf(properties.getPrepStmtCacheSize()));
		return defaults;
	}

	/**
	 * Parses a boolean the way the driver does.
	 * @param value the value
	 * @return the boolean, or empty when the driver would refuse the value
	 */
	abstract Optional<Boolean> parseBoolean(String value);

	/**
	 * The driver's own defaults for the settings the checks look at, read from the driver
	 * (never from a pool's URL: for a URL they cannot parse, the drivers throw or log
	 * messages quoting parts of it, a password among them).
	 * @param classLoader where the driver is
	 * @return key to value, empty when the driver cannot be read (the checks then take
	 * the setting as unknown)
	 */
	abstract Map<String, String> driverDefaults(ClassLoader classLoader);

	/**
	 * The property names the driver knows, read from the driver itself.
	 * @param classLoader where the driver is
	 * @return the names, or {@link DriverPropertyNames#UNKNOWN} when the driver cannot be
	 * read
	 */
	abstract DriverPropertyNames propertyNames(ClassLoader classLoader);

	/**
	 * The driver's name for people.
	 * @return the name
	 */
	String displayName() {
		return this.displayName;
	}

	/**
	 * Whether the driver matches property keys without regard to case.
	 * @return {@code true} for MariaDB Connector/J
	 */
	boolean caseInsensitiveKeys() {
		return this.caseInsensitiveKeys;
	}

	/**
	 * Whether properties passed to the driver override the URL's parameters.
	 * @return {@code true} for Connector/J, {@code false} for MariaDB Connector/J
	 */
	boolean propertiesWinOverUrl() {
		return this.propertiesWinOverUrl;
	}

	/**
	 * Reads a {@code useConfigs} bundle from the driver (Connector/J only).
	 * @param name the bundle's name, such as {@code maxPerformance}
	 * @param classLoader where the driver is
	 * @return its settings, empty when the driver has no such bundle
	 */
	Properties configurationBundle(String name, ClassLoader classLoader) {
		Properties bundle = new Properties();
		if (this != CONNECTOR_J) {
			return bundle;
		}
		String resource = "com/mysql/cj/configurations/" + name.trim() + ".properties";
		try (InputStream in = classLoader.getResourceAsStream(resource)) {
			if (in != null) {
				bundle.load(in);
			}
		}
		catch (IOException ex) {
			// An unreadable bundle is treated as absent: the driver itself would refuse
			// it.
		}
		return bundle;
	}

	@Override
	public String toString() {
		return this.displayName;
	}

}
