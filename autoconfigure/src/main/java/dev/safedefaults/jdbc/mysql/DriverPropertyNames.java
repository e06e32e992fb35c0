package dev.safedefaults.jdbc.mysql;

import java.lang.reflect.Method;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The property names a MySQL-protocol driver knows, read from the driver itself (with
 * MariaDB Connector/J's aliases), and the unmapped options MariaDB Connector/J reads
 * besides (as in 3.5.10): what the {@code jdbc.ignored-property} check compares the
 * user's keys with.
 *
 * @param known whether the driver reads a key
 * @param spelling the driver's spelling of a key written in another case, if any
 */
record DriverPropertyNames(Predicate<String> known, Function<String, Optional<String>> spelling) {

	/**
	 * MariaDB Connector/J's aliases: lower-case alias to option, a public map of the
	 * driver (3.5.10).
	 */
	private static final String MARIADB_ALIASES = "org.mariadb.jdbc.util.options.OptionAliases";

	/**
	 * Keys MariaDB Connector/J 3.5.10 reads from its unmapped options, case-sensitively.
	 * A copy: the driver lists them nowhere (neither {@code getPropertyInfo} nor a public
	 * constant), each is read where it is used.
	 */
	private static final Set<String> MARIADB_UNMAPPED_OPTIONS = Set.of("useSsl", "useSSL", "trustServerCertificate",
			"disableSslHostnameVerification", "forceTransactionEnd", "canUseServerTimeout", "getImportedKeysUsingIs",
			"getExportedKeysUsingIs", "importedKeysWithConstraintNames", "userKey", "pwdKey", "accessKeyId",
			"secretKey", "region", "disableSslContextCache", "testMinRemovalDelay",
			"resultSetMetaDataUnsignedCompatibility", "deniedListTimeout", "waitReconnectTimeout");

	private static final Pattern PAM_PASSWORD = Pattern.compile("password\\d+");

	/** When the driver cannot be read: every key counts as known. */
	static final DriverPropertyNames UNKNOWN = new DriverPropertyNames((name) -> true, (name) -> Optional.empty());

	boolean knows(String key) {
		return this.known.test(key);
	}

	Optional<String> spellingOf(String key) {
		return this.spelling.apply(key).filter((spelled) -> !spelled.equals(key));
	}

	/**
	 * MySQL Connector/J's names.
	 * @param classLoader where the driver is
	 * @return the names, or {@link #UNKNOWN} when the driver cannot be read
	 */
	static DriverPropertyNames ofConnectorJ(ClassLoader classLoader) {
		// The driver's own list: the enum com.mysql.cj.conf.PropertyKey, whose
		// fromValue() applies the driver's rules (exact case but for host, user,
		// password...; aliases).
		try {
			Class<?> keys = Class.forName("com.mysql.cj.conf.PropertyKey", false, classLoader);
			Method fromValue = keys.getMethod("fromValue", String.class);
			Method keyName = keys.getMethod("getKeyName");
			Map<String, String> spelling = new LinkedHashMap<>();
			for (Object key : keys.getEnumConstants()) {
				spelling.putIfAbsent(((String) keyName.invoke(key)).toLowerCase(Locale.ROOT),
						(String) keyName.invoke(key));
			}
			return new DriverPropertyNames((name) -> {
				try {
					return fromValue.invoke(null, name) != null;
				}
				catch (ReflectiveOperationException ex) {
					return true;
				}
			}, (name) -> Optional.ofNullable(spelling.get(name.toLowerCase(Locale.ROOT))));
		}
		catch (ReflectiveOperationException | LinkageError | RuntimeException ex) {
			return UNKNOWN;
		}
	}

	/**
	 * MariaDB Connector/J's names.
	 * @param driverClassName its driver class
	 * @param classLoader where the driver is
	 * @return the names, or {@link #UNKNOWN} when the driver cannot be read
	 */
	static DriverPropertyNames ofMariaDb(String driverClassName, ClassLoader classLoader) {
		// The driver's own lists: Driver.getPropertyInfo() names every Configuration
		// option (matched without regard to case), OptionAliases its aliases; plus the
		// options it reads from the unmapped ones (exact case), as in 3.5.10. A driver
		// without either list is not read: no key is then said to be ignored.
		try {
			Map<String, String> options = new LinkedHashMap<>();
			for (DriverPropertyInfo info : mariaDbOptions(driverClassName, classLoader)) {
				options.put(info.name.toLowerCase(Locale.ROOT), info.name);
			}
			if (options.isEmpty()) {
				return UNKNOWN;
			}
			Map<?, ?> aliases = (Map<?, ?>) Class.forName(MARIADB_ALIASES, true, classLoader)
				.getField("OPTIONS_ALIASES")
				.get(null);
			aliases.forEach((alias, option) -> options.put(String.valueOf(alias).toLowerCase(Locale.ROOT),
					String.valueOf(option)));
			return new DriverPropertyNames(
					(name) -> options.containsKey(name.toLowerCase(Locale.ROOT))
							|| MARIADB_UNMAPPED_OPTIONS.contains(name) || PAM_PASSWORD.matcher(name).matches(),
					(name) -> Optional.ofNullable(options.get(name.toLowerCase(Locale.ROOT))));
		}
		catch (ReflectiveOperationException | LinkageError | SQLException | RuntimeException ex) {
			return UNKNOWN;
		}
	}

	/**
	 * Every option of MariaDB Connector/J with its default: {@code getPropertyInfo} for a
	 * URL without settings, which connects nowhere (3.5.10).
	 * @param driverClassName its driver class
	 * @param classLoader where the driver is
	 * @return the options
	 * @throws ReflectiveOperationException when the driver cannot be created
	 * @throws SQLException when the driver refuses the URL
	 */
	static DriverPropertyInfo[] mariaDbOptions(String driverClassName, ClassLoader classLoader)
			throws ReflectiveOperationException, SQLException {
		Driver driver = (Driver) Class.forName(driverClassName, true, classLoader)
			.getDeclaredConstructor()
			.newInstance();
		return driver.getPropertyInfo("jdbc:mariadb://localhost/", new Properties());
	}

}
