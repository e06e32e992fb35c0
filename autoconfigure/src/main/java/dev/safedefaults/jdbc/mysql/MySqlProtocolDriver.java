package dev.safedefaults.jdbc.mysql;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import org.jspecify.annotations.Nullable;

/**
 * What safe-defaults knows about the two MySQL-protocol drivers: how to recognise a pool
 * that uses them, the settings it adds, how each driver reads its settings (which of URL
 * and properties wins, whether keys are case-sensitive, its own defaults) and which
 * property names it knows ({@link DriverPropertyNames}). Facts checked in the sources of
 * MySQL Connector/J 9.7.0 and MariaDB Connector/J 3.5.10.
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
			Map<String, String> defaults = new LinkedHashMap<>();
			defaults.put(USE_SERVER_PREP_STMTS, "true");
			defaults.put(CACHE_PREP_STMTS, "true");
			defaults.put(PREP_STMT_CACHE_SIZE, String.valueOf(properties.getPrepStmtCacheSize()));
			defaults.put(PREP_STMT_CACHE_SQL_LIMIT, String.valueOf(properties.getPrepStmtCacheSqlLimit()));
			// Incident 5: without it Connector/J asks the server for the session's
			// read-only
			// state before every update sent with execute() (as MyBatis does).
			defaults.put(USE_CONFIGS, "maxPerformance");
			// maxPerformance turns query timeouts off: Statement.setQueryTimeout() and
			// @Transactional(timeout) would silently stop working. Explicit keys win over
			// it.
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
		Map<String, String> driverDefaults() {
			// PropertyDefinitions of 9.7.0.
			return Map.of(USE_SERVER_PREP_STMTS, "false", CACHE_PREP_STMTS, "false", PREP_STMT_CACHE_SIZE, "25",
					PREP_STMT_CACHE_SQL_LIMIT, "256", ENABLE_QUERY_TIMEOUTS, "true", USE_LOCAL_SESSION_STATE, "false",
					AUTO_RECONNECT, "false", ALLOW_MULTI_QUERIES, "false", SOCKET_TIMEOUT, "0");
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
			Map<String, String> defaults = new LinkedHashMap<>();
			defaults.put(USE_SERVER_PREP_STMTS, "true");
			defaults.put(CACHE_PREP_STMTS, "true");
			defaults.put(PREP_STMT_CACHE_SIZE, String.valueOf(properties.getPrepStmtCacheSize()));
			return defaults;
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
		Map<String, String> driverDefaults() {
			// Configuration of 3.5.10.
			return Map.of(USE_SERVER_PREP_STMTS, "false", CACHE_PREP_STMTS, "true", PREP_STMT_CACHE_SIZE, "250",
					USE_LOCAL_SESSION_STATE, "false", ALLOW_MULTI_QUERIES, "false", REWRITE_BATCHED_STATEMENTS, "false",
					SOCKET_TIMEOUT, "0");
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
	 * Parses a boolean the way the driver does.
	 * @param value the value
	 * @return the boolean, or empty when the driver would refuse the value
	 */
	abstract Optional<Boolean> parseBoolean(String value);

	/**
	 * The driver's own defaults for the settings the checks look at.
	 * @return key to value
	 */
	abstract Map<String, String> driverDefaults();

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
