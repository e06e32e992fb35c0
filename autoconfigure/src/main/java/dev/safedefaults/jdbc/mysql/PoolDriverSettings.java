package dev.safedefaults.jdbc.mysql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.SecretMasker;
import dev.safedefaults.jdbc.JdbcUrlForDisplay;
import dev.safedefaults.jdbc.JdbcUrlQuery;
import org.jspecify.annotations.Nullable;

/**
 * The driver settings of one MySQL-protocol pool, read the way its driver reads them: the
 * URL's parameters and the pool's data-source properties, which of them wins, the case of
 * keys, Connector/J's {@code useConfigs} bundles and the driver's own defaults. It only
 * reads configuration: it never connects.
 */
final class PoolDriverSettings {

	/**
	 * {@code key=} inside Connector/J's host forms {@code (host=…,key=value)} and
	 * {@code address=(key=value)}.
	 */
	private static final Pattern HOST_SECTION_KEY = Pattern.compile("[(,]\\s*([\\w.\\-]+)\\s*=");

	/** What a key may look like to be named in a finding. */
	private static final Pattern KEY_NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");

	/** Keys of the address syntax itself, not driver options. */
	private static final Set<String> ADDRESS_KEYS = Set.of("host", "port", "protocol", "address", "priority", "type",
			"user", "password");

	/** What {@link #origin(String)} says when no one set the key. */
	static final String DRIVER_DEFAULT = "the driver's default";

	private final MySqlProtocolDriver driver;

	private final String jdbcUrl;

	private final List<Map.Entry<String, String>> urlParameters;

	private final List<String> hostSectionKeys;

	private final Map<String, String> dataSourceProperties;

	private final ClassLoader classLoader;

	/** The driver's defaults, read on first use. */
	private @Nullable Map<String, String> driverDefaults;

	private PoolDriverSettings(MySqlProtocolDriver driver, String jdbcUrl, Properties dataSourceProperties,
			ClassLoader classLoader) {
		this.driver = driver;
		this.jdbcUrl = jdbcUrl;
		this.urlParameters = parseQuery(jdbcUrl, driver == MySqlProtocolDriver.CONNECTOR_J);
		this.hostSectionKeys = hostSectionKeys(jdbcUrl);
		this.dataSourceProperties = new LinkedHashMap<>();
		dataSourceProperties.forEach((key, value) -> this.dataSourceProperties.put(String.valueOf(key),
				(value != null) ? String.valueOf(value) : null));
		this.classLoader = classLoader;
	}

	/**
	 * Reads a pool configured with a JDBC URL whose driver is MySQL Connector/J or
	 * MariaDB Connector/J.
	 * @param driverClassName the pool's driver class name, may be {@code null}
	 * @param jdbcUrl the pool's URL, may be {@code null}
	 * @param dataSourceProperties the pool's data-source properties (passed to the
	 * driver)
	 * @param classLoader where the driver is
	 * @return the settings, or empty when the pool has no URL or another driver
	 */
	static Optional<PoolDriverSettings> read(@Nullable String driverClassName, @Nullable String jdbcUrl,
			Properties dataSourceProperties, ClassLoader classLoader) {
		if (jdbcUrl == null || jdbcUrl.isBlank()) {
			return Optional.empty();
		}
		return MySqlProtocolDriver.detect(driverClassName, jdbcUrl)
			.map((driver) -> new PoolDriverSettings(driver, jdbcUrl, dataSourceProperties, classLoader));
	}

	/**
	 * Reads the driver settings of a pool configured with a JDBC URL and a MySQL-protocol
	 * driver.
	 * @param pool the pool
	 * @return the settings, or {@code null} when the pool is of another kind
	 */
	static @Nullable PoolDriverSettings of(HikariDataSource pool) {
		return read(pool.getDriverClassName(), pool.getJdbcUrl(), pool.getDataSourceProperties(),
				driverClassLoader(pool))
			.orElse(null);
	}

	/**
	 * Where the pool's driver is: the context class loader, as Hikari looks there first.
	 * @param pool the pool
	 * @return the class loader
	 */
	static ClassLoader driverClassLoader(HikariDataSource pool) {
		ClassLoader context = Thread.currentThread().getContextClassLoader();
		return (context != null) ? context : pool.getClass().getClassLoader();
	}

	MySqlProtocolDriver driver() {
		return this.driver;
	}

	/**
	 * The URL with its secrets masked, safe to print.
	 * @return the masked URL
	 */
	String maskedUrl() {
		return SecretMasker.maskUrl(this.jdbcUrl);
	}

	/**
	 * Whether the user set a key, in the URL (parameters or Connector/J's host forms) or
	 * in the data-source properties, in any case: the user's intent wins even where the
	 * driver ignores the spelling (the {@code jdbc.ignored-property} check says so).
	 * @param key the key
	 * @return {@code true} when set
	 */
	boolean isSetByUser(String key) {
		return this.urlParameters.stream().anyMatch((parameter) -> parameter.getKey().equalsIgnoreCase(key))
				|| this.hostSectionKeys.stream().anyMatch((hostKey) -> hostKey.equalsIgnoreCase(key))
				|| this.dataSourceProperties.keySet().stream().anyMatch((property) -> property.equalsIgnoreCase(key));
	}

	/**
	 * Every key the user set, with where: for the ignored-property check. Only names: the
	 * URL's keys only when the URL parses for display, since in a URL that does not (a
	 * raw {@code ?} or {@code @} in a password) part of a secret can sit where a key
	 * should.
	 * @return key to {@code "URL"} or {@code "data-source properties"}, in order
	 */
	Map<String, String> userKeys() {
		Map<String, String> keys = new LinkedHashMap<>();
		if (JdbcUrlForDisplay.parses(this.jdbcUrl)) {
			this.urlParameters.stream()
				.map(Map.Entry::getKey)
				.filter((key) -> KEY_NAME.matcher(key).matches())
				.forEach((key) -> keys.putIfAbsent(key, "URL"));
			this.hostSectionKeys.stream()
				.filter((key) -> KEY_NAME.matcher(key).matches())
				.forEach((key) -> keys.putIfAbsent(key, "URL"));
		}
		this.dataSourceProperties.keySet()
			.stream()
			.filter((key) -> KEY_NAME.matcher(key).matches())
			.forEach((key) -> keys.putIfAbsent(key, "data-source properties"));
		return keys;
	}

	/**
	 * The value the driver sees for a key, set in the URL or the properties, applying the
	 * driver's precedence and case rules; no bundle, no default.
	 * @param key the key, in the driver's spelling
	 * @return the value, empty when not set
	 */
	Optional<String> explicit(String key) {
		Optional<String> fromUrl = fromUrl(key);
		Optional<String> fromProperties = fromProperties(key);
		return this.driver.propertiesWinOverUrl() ? fromProperties.or(() -> fromUrl) : fromUrl.or(() -> fromProperties);
	}

	/**
	 * The value in effect for a key: set explicitly, else from a Connector/J
	 * {@code useConfigs} bundle, else the driver's default.
	 * @param key the key, in the driver's spelling
	 * @return the value, empty when unknown
	 */
	Optional<String> effective(String key) {
		Optional<String> explicit = explicit(key);
		if (explicit.isPresent()) {
			return explicit;
		}
		Optional<String> bundled = fromBundles(key);
		if (bundled.isPresent()) {
			return bundled;
		}
		return Optional.ofNullable(driverDefaults().get(key));
	}

	private Map<String, String> driverDefaults() {
		Map<String, String> defaults = this.driverDefaults;
		if (defaults == null) {
			defaults = this.driver.driverDefaults(this.classLoader);
			this.driverDefaults = defaults;
		}
		return defaults;
	}

	/**
	 * Where the value in effect comes from, for messages.
	 * @param key the key
	 * @return {@code "set in the URL"}, {@code "set in the data-source properties"},
	 * {@code "from useConfigs=…"} or {@code "the driver's default"}
	 */
	String origin(String key) {
		Optional<String> fromUrl = fromUrl(key);
		Optional<String> fromProperties = fromProperties(key);
		if (fromUrl.isPresent() || fromProperties.isPresent()) {
			boolean url = this.driver.propertiesWinOverUrl() ? fromProperties.isEmpty() : fromUrl.isPresent();
			return url ? "set in the URL" : "set in the data-source properties";
		}
		if (fromBundles(key).isPresent()) {
			return "from useConfigs=" + explicit(MySqlProtocolDriver.USE_CONFIGS).orElse("");
		}
		return DRIVER_DEFAULT;
	}

	/**
	 * A boolean in effect, parsed as the driver parses it.
	 * @param key the key
	 * @return the value, empty when unknown or unparseable
	 */
	Optional<Boolean> effectiveBoolean(String key) {
		Optional<Boolean> value = effective(key).flatMap(this.driver::parseBoolean);
		if (this.driver == MySqlProtocolDriver.MARIADB && key.equals(MySqlProtocolDriver.USE_SERVER_PREP_STMTS)
				&& rewritesBatches()) {
			// Configuration: rewriteBatchedStatements=true forces server prepares off. A
			// copy (3.5.10): the driver reports it only for the pool's own URL, which it
			// is not given (MySqlProtocolDriver.driverDefaults says why).
			return Optional.of(false);
		}
		return value;
	}

	/**
	 * Whether MariaDB Connector/J's {@code rewriteBatchedStatements} is on.
	 * @return {@code true} when it is (always {@code false} for Connector/J)
	 */
	boolean rewritesBatches() {
		return this.driver == MySqlProtocolDriver.MARIADB
				&& effective(MySqlProtocolDriver.REWRITE_BATCHED_STATEMENTS).flatMap(this.driver::parseBoolean)
					.orElse(false);
	}

	/**
	 * An integer in effect.
	 * @param key the key
	 * @return the value, empty when unknown or not a number
	 */
	OptionalInt effectiveInt(String key) {
		Optional<String> value = effective(key);
		if (value.isEmpty()) {
			return OptionalInt.empty();
		}
		try {
			return OptionalInt.of(Integer.parseInt(value.get().trim()));
		}
		catch (NumberFormatException ex) {
			return OptionalInt.empty();
		}
	}

	private Optional<String> fromUrl(String key) {
		String found = null;
		for (Map.Entry<String, String> parameter : this.urlParameters) {
			if (matches(parameter.getKey(), key)) {
				found = parameter.getValue();
			}
		}
		return Optional.ofNullable(found);
	}

	private Optional<String> fromProperties(String key) {
		String exact = this.dataSourceProperties.get(key);
		if (exact != null) {
			return Optional.of(exact);
		}
		return this.dataSourceProperties.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() != null && matches(entry.getKey(), key))
			.map(Map.Entry::getValue)
			.findFirst();
	}

	private Optional<String> fromBundles(String key) {
		Optional<String> useConfigs = explicit(MySqlProtocolDriver.USE_CONFIGS);
		if (useConfigs.isEmpty()) {
			return Optional.empty();
		}
		Properties merged = new Properties();
		for (String bundle : useConfigs.get().split(",")) {
			if (!bundle.isBlank()) {
				merged.putAll(this.driver.configurationBundle(bundle, this.classLoader));
			}
		}
		return Optional.ofNullable(merged.getProperty(key));
	}

	private boolean matches(String given, String key) {
		return this.driver.caseInsensitiveKeys() ? given.equalsIgnoreCase(key) : given.equals(key);
	}

	private static List<Map.Entry<String, String>> parseQuery(String url, boolean decode) {
		// Connector/J trims and decodes keys and values; MariaDB Connector/J takes both
		// raw.
		return decode
				? JdbcUrlQuery.parseQuery(url, PoolDriverSettings::decodeTrimmed, PoolDriverSettings::decodeTrimmed)
				: JdbcUrlQuery.parseQuery(url, UnaryOperator.identity(), UnaryOperator.identity());
	}

	private static String decodeTrimmed(String text) {
		return JdbcUrlQuery.decode(text.trim());
	}

	private static List<String> hostSectionKeys(String url) {
		int start = url.indexOf("//");
		int query = url.indexOf('?');
		String hosts = url.substring((start < 0) ? 0 : start + 2, (query < 0) ? url.length() : query);
		// Never read into the user info: a password may contain "(", "," or "=".
		hosts = hosts.substring(hosts.lastIndexOf('@') + 1);
		List<String> keys = new ArrayList<>();
		Matcher matcher = HOST_SECTION_KEY.matcher(hosts);
		while (matcher.find()) {
			if (!ADDRESS_KEYS.contains(matcher.group(1).toLowerCase(Locale.ROOT))) {
				keys.add(matcher.group(1));
			}
		}
		return keys;
	}

}
