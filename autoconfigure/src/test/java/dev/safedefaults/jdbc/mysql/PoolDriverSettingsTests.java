package dev.safedefaults.jdbc.mysql;

import java.sql.Driver;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The driver knowledge: recognising a pool's driver, reading settings as each driver
 * reads them, and each driver's own property names. Where it can, it asks the real
 * drivers (MySQL Connector/J 9.7.0, MariaDB Connector/J 3.5.10) and compares.
 */
class PoolDriverSettingsTests {

	private static final ClassLoader CLASS_LOADER = PoolDriverSettingsTests.class.getClassLoader();

	private static PoolDriverSettings read(String url, Map<String, String> properties) {
		Properties props = new Properties();
		props.putAll(properties);
		return PoolDriverSettings.read(null, url, props, CLASS_LOADER).orElseThrow();
	}

	@Test
	void recognisesTheDriverByClassNameFirstThenByUrl() {
		assertThat(MySqlProtocolDriver.detect(null, "jdbc:mysql://db/x")).contains(MySqlProtocolDriver.CONNECTOR_J);
		assertThat(MySqlProtocolDriver.detect(null, "jdbc:mysql:loadbalance://a,b/x"))
			.contains(MySqlProtocolDriver.CONNECTOR_J);
		assertThat(MySqlProtocolDriver.detect(null, "jdbc:mysql+srv://db/x")).contains(MySqlProtocolDriver.CONNECTOR_J);
		assertThat(MySqlProtocolDriver.detect(null, "jdbc:mariadb://db/x")).contains(MySqlProtocolDriver.MARIADB);
		assertThat(MySqlProtocolDriver.detect(null, "jdbc:mysql://db/x?permitMysqlScheme"))
			.contains(MySqlProtocolDriver.MARIADB);
		assertThat(MySqlProtocolDriver.detect("org.mariadb.jdbc.Driver", "jdbc:mysql://db/x?permitMysqlScheme"))
			.contains(MySqlProtocolDriver.MARIADB);
		assertThat(MySqlProtocolDriver.detect("com.mysql.cj.jdbc.Driver", "jdbc:mysql://db/x"))
			.contains(MySqlProtocolDriver.CONNECTOR_J);
	}

	@Test
	void otherDatabasesAndProxyDriversAreNotRecognised() {
		assertThat(MySqlProtocolDriver.detect(null, "jdbc:postgresql://db/x")).isEmpty();
		assertThat(MySqlProtocolDriver.detect(null, "jdbc:h2:mem:x")).isEmpty();
		assertThat(MySqlProtocolDriver.detect("com.p6spy.engine.spy.P6SpyDriver", "jdbc:p6spy:mysql://db/x")).isEmpty();
		assertThat(MySqlProtocolDriver.detect(null, null)).isEmpty();
	}

	@Test
	void connectorJPropertiesWinOverTheUrl() {
		PoolDriverSettings settings = read("jdbc:mysql://db/x?useServerPrepStmts=false",
				Map.of("useServerPrepStmts", "true"));
		assertThat(settings.effectiveBoolean("useServerPrepStmts")).contains(true);
		assertThat(settings.origin("useServerPrepStmts")).isEqualTo("set in the data-source properties");
	}

	@Test
	void mariaDbUrlWinsOverTheProperties() {
		PoolDriverSettings settings = read("jdbc:mariadb://db/x?useServerPrepStmts=false",
				Map.of("useServerPrepStmts", "true"));
		assertThat(settings.effectiveBoolean("useServerPrepStmts")).contains(false);
		assertThat(settings.origin("useServerPrepStmts")).isEqualTo("set in the URL");
	}

	@Test
	void connectorJKeysAreCaseSensitiveMariaDbKeysAreNot() {
		assertThat(read("jdbc:mysql://db/x?useserverprepstmts=true", Map.of()).effectiveBoolean("useServerPrepStmts"))
			.contains(false);
		assertThat(read("jdbc:mariadb://db/x?useserverprepstmts=true", Map.of()).effectiveBoolean("useServerPrepStmts"))
			.contains(true);
	}

	@Test
	void theUserSetAKeyInAnyCaseInTheUrlTheHostFormOrTheProperties() {
		assertThat(read("jdbc:mysql://db/x?USESERVERPREPSTMTS=false", Map.of()).isSetByUser("useServerPrepStmts"))
			.isTrue();
		assertThat(read("jdbc:mysql://(host=db,cachePrepStmts=false)/x", Map.of()).isSetByUser("cachePrepStmts"))
			.isTrue();
		assertThat(read("jdbc:mysql://db/x", Map.of("prepstmtcachesize", "10")).isSetByUser("prepStmtCacheSize"))
			.isTrue();
		assertThat(read("jdbc:mysql://db/x?cachePrepStmts=true", Map.of()).isSetByUser("useServerPrepStmts")).isFalse();
	}

	@Test
	void aPasswordInTheUrlIsNeverReadAsAKey() {
		PoolDriverSettings settings = read("jdbc:mysql://app:p(w,useServerPrepStmts=x@db/x", Map.of());
		assertThat(settings.isSetByUser("useServerPrepStmts")).isFalse();
		assertThat(settings.userKeys()).isEmpty();
	}

	@Test
	void connectorJReadsUseConfigsBundlesFromTheDriverWithoutOverridingExplicitKeys() {
		PoolDriverSettings settings = read("jdbc:mysql://db/x?useConfigs=maxPerformance&cachePrepStmts=false",
				Map.of());
		assertThat(settings.effectiveBoolean("enableQueryTimeouts")).contains(false);
		assertThat(settings.effectiveBoolean("useLocalSessionState")).contains(true);
		assertThat(settings.effectiveBoolean("cachePrepStmts")).contains(false);
		assertThat(settings.origin("enableQueryTimeouts")).isEqualTo("from useConfigs=maxPerformance");
	}

	@Test
	void mariaDbRewriteBatchedStatementsTurnsServerPreparesOff() {
		PoolDriverSettings settings = read("jdbc:mariadb://db/x?rewriteBatchedStatements=true",
				Map.of("useServerPrepStmts", "true"));
		assertThat(settings.effectiveBoolean("useServerPrepStmts")).contains(false);
	}

	@Test
	void driverDefaultsApplyWhenNothingIsSet() {
		PoolDriverSettings connectorJ = read("jdbc:mysql://db/x", Map.of());
		assertThat(connectorJ.effectiveInt("prepStmtCacheSize")).hasValue(25);
		assertThat(connectorJ.effectiveInt("prepStmtCacheSqlLimit")).hasValue(256);
		assertThat(connectorJ.origin("prepStmtCacheSize")).isEqualTo("the driver's default");
		PoolDriverSettings mariaDb = read("jdbc:mariadb://db/x", Map.of());
		assertThat(mariaDb.effectiveBoolean("cachePrepStmts")).contains(true);
		assertThat(mariaDb.effectiveInt("prepStmtCacheSize")).hasValue(250);
	}

	@Test
	void theEffectiveValuesAgreeWithConnectorJItself() throws Exception {
		Driver driver = new com.mysql.cj.jdbc.NonRegisteringDriver();
		String[][] cases = { { "jdbc:mysql://db/x", "" }, { "jdbc:mysql://db/x?useConfigs=maxPerformance", "" },
				{ "jdbc:mysql://db/x?useConfigs=maxPerformance&enableQueryTimeouts=true", "" },
				{ "jdbc:mysql://db/x?useServerPrepStmts=false", "useServerPrepStmts=true" },
				{ "jdbc:mysql://db/x?useserverprepstmts=true&prepStmtCacheSize=99", "cachePrepStmts=yes" } };
		for (String[] c : cases) {
			Map<String, String> properties = parse(c[1]);
			assertAgree(driver, c[0], properties, "useServerPrepStmts", "cachePrepStmts", "prepStmtCacheSize",
					"prepStmtCacheSqlLimit", "enableQueryTimeouts", "useLocalSessionState");
		}
	}

	@Test
	void theEffectiveValuesAgreeWithMariaDbConnectorJItself() throws Exception {
		Driver driver = new org.mariadb.jdbc.Driver();
		String[][] cases = { { "jdbc:mariadb://db/x", "" },
				{ "jdbc:mariadb://db/x?useServerPrepStmts=false", "useServerPrepStmts=true" },
				{ "jdbc:mariadb://db/x?USESERVERPREPSTMTS=true&prepStmtCacheSize=99", "cachePrepStmts=false" },
				{ "jdbc:mariadb://db/x?rewriteBatchedStatements=true", "useServerPrepStmts=true" } };
		for (String[] c : cases) {
			assertAgree(driver, c[0], parse(c[1]), "useServerPrepStmts", "cachePrepStmts", "prepStmtCacheSize",
					"useLocalSessionState", "allowMultiQueries");
		}
	}

	private static void assertAgree(Driver driver, String url, Map<String, String> properties, String... keys)
			throws Exception {
		Properties info = new Properties();
		info.putAll(properties);
		Map<String, String> driverView = Arrays.stream(driver.getPropertyInfo(url, info))
			.filter((property) -> property.value != null)
			.collect(Collectors.toMap((property) -> property.name, (property) -> property.value, (a, b) -> a));
		PoolDriverSettings settings = read(url, properties);
		for (String key : keys) {
			assertThat(driverView).as("the driver reports %s", key).containsKey(key);
			Function<String, String> normalise = (
					value) -> settings.driver().parseBoolean(value).map(String::valueOf).orElse(value);
			String ours = settings.effectiveBoolean(key)
				.map(String::valueOf)
				.orElseGet(() -> settings.effective(key).map(normalise).orElse(null));
			assertThat(ours).as("%s of %s with %s", key, url, properties)
				.isEqualTo(normalise.apply(driverView.get(key)));
		}
	}

	private static Map<String, String> parse(String pairs) {
		if (pairs.isEmpty()) {
			return Map.of();
		}
		return Arrays.stream(pairs.split("&"))
			.map((pair) -> pair.split("=", 2))
			.collect(Collectors.toMap((pair) -> pair[0], (pair) -> pair[1]));
	}

	@Test
	void connectorJNamesComeFromTheDriverAndAreCaseSensitive() {
		DriverPropertyNames names = MySqlProtocolDriver.CONNECTOR_J.propertyNames(CLASS_LOADER);
		assertThat(names.knows("allowMultiQueries")).isTrue();
		assertThat(names.knows("serverTimezone")).as("an alias").isTrue();
		assertThat(names.knows("PASSWORD")).as("user and password in any case").isTrue();
		assertThat(names.knows("multiStatements")).isFalse();
		assertThat(names.knows("useserverprepstmts")).isFalse();
		assertThat(names.spellingOf("useserverprepstmts")).contains("useServerPrepStmts");
	}

	@Test
	void mariaDbNamesComeFromTheDriverInAnyCase() {
		DriverPropertyNames names = MySqlProtocolDriver.MARIADB.propertyNames(CLASS_LOADER);
		assertThat(names.knows("useServerPrepStmts")).isTrue();
		assertThat(names.knows("USESERVERPREPSTMTS")).isTrue();
		assertThat(names.knows("user")).isTrue();
		assertThat(names.knows("password")).isTrue();
		assertThat(names.knows("useSsl")).as("read from the unmapped options").isTrue();
		assertThat(names.knows("nullCatalogMeansCurrent")).as("an alias").isTrue();
		assertThat(names.knows("useConfigs")).isFalse();
		assertThat(names.knows("prepStmtCacheSqlLimit")).isFalse();
		assertThat(names.knows("autoReconnect")).isFalse();
	}

}
