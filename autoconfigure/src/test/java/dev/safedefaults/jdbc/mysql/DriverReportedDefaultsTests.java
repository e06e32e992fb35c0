package dev.safedefaults.jdbc.mysql;

import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.mariadb.jdbc.Configuration;

import org.springframework.boot.test.context.FilteredClassLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The drivers' defaults the checks read from the drivers (Connector/J's
 * {@code PropertyDefinitions}, MariaDB Connector/J's {@code getPropertyInfo} for a URL
 * without settings), checked against the drivers' other public answer, and the values the
 * findings' advice rests on: a driver upgrade that changed one of them fails here. MySQL
 * Connector/J 9.7.0, MariaDB Connector/J 3.5.10.
 */
class DriverReportedDefaultsTests {

	private static final ClassLoader CLASS_LOADER = DriverReportedDefaultsTests.class.getClassLoader();

	@Test
	void connectorJsPropertyDefinitionsGiveTheDefaultsItsDriverReports() throws Exception {
		Map<String, String> defaults = MySqlProtocolDriver.CONNECTOR_J.driverDefaults(CLASS_LOADER);
		assertThat(defaults).hasSize(10);
		Map<String, String> reported = new HashMap<>();
		for (DriverPropertyInfo info : new com.mysql.cj.jdbc.NonRegisteringDriver()
			.getPropertyInfo("jdbc:mysql://localhost/", new Properties())) {
			if (defaults.containsKey(info.name)) {
				reported.putIfAbsent(info.name, info.value);
			}
		}
		assertThat(reported).isEqualTo(defaults);
		// Server prepares and the statement cache off, a small cache, query timeouts on,
		// no socket timeout: what the findings say of Connector/J's defaults.
		assertThat(defaults).containsEntry("useServerPrepStmts", "false")
			.containsEntry("cachePrepStmts", "false")
			.containsEntry("prepStmtCacheSize", "25")
			.containsEntry("prepStmtCacheSqlLimit", "256")
			.containsEntry("enableQueryTimeouts", "true")
			.containsEntry("useLocalSessionState", "false")
			.containsEntry("autoReconnect", "false")
			.containsEntry("allowMultiQueries", "false")
			.containsEntry("rewriteBatchedStatements", "false")
			.containsEntry("socketTimeout", "0");
	}

	@Test
	void mariaDbReportsTheDefaultsOfItsConfiguration() throws Exception {
		Map<String, String> defaults = MySqlProtocolDriver.MARIADB.driverDefaults(CLASS_LOADER);
		Configuration configuration = Configuration.parse("jdbc:mariadb://localhost/");
		assertThat(defaults).containsExactlyInAnyOrderEntriesOf(
				Map.of("useServerPrepStmts", String.valueOf(configuration.useServerPrepStmts()), "cachePrepStmts",
						String.valueOf(configuration.cachePrepStmts()), "prepStmtCacheSize",
						String.valueOf(configuration.prepStmtCacheSize()), "useLocalSessionState",
						String.valueOf(configuration.useLocalSessionState()), "allowMultiQueries",
						String.valueOf(configuration.allowMultiQueries()), "rewriteBatchedStatements",
						String.valueOf(configuration.rewriteBatchedStatements()), "socketTimeout",
						String.valueOf(configuration.socketTimeout())));
		// Server prepares off, a cache of 250 for them, no socket timeout; no
		// prepStmtCacheSqlLimit, enableQueryTimeouts or autoReconnect options.
		assertThat(defaults).containsEntry("useServerPrepStmts", "false")
			.containsEntry("cachePrepStmts", "true")
			.containsEntry("prepStmtCacheSize", "250")
			.containsEntry("rewriteBatchedStatements", "false")
			.containsEntry("socketTimeout", "0");
	}

	@Test
	void neitherDriverConnectsToReportItsProperties() throws Exception {
		try (ServerSocket server = new ServerSocket(0)) {
			server.setSoTimeout(300);
			for (Driver driver : new Driver[] { new com.mysql.cj.jdbc.NonRegisteringDriver(),
					new org.mariadb.jdbc.Driver() }) {
				String scheme = (driver instanceof org.mariadb.jdbc.Driver) ? "mariadb" : "mysql";
				assertThat(driver.getPropertyInfo("jdbc:" + scheme + "://127.0.0.1:" + server.getLocalPort() + "/",
						new Properties()))
					.isNotEmpty();
				assertThatExceptionOfType(SocketTimeoutException.class).as(scheme).isThrownBy(server::accept);
			}
		}
	}

	@Test
	void withoutTheDriverNoDefaultIsKnown() {
		ClassLoader withoutDrivers = new FilteredClassLoader("com.mysql", "org.mariadb");
		assertThat(MySqlProtocolDriver.CONNECTOR_J.driverDefaults(withoutDrivers)).isEmpty();
		assertThat(MySqlProtocolDriver.MARIADB.driverDefaults(withoutDrivers)).isEmpty();
		Properties none = new Properties();
		PoolDriverSettings settings = PoolDriverSettings.read(null, "jdbc:mysql://db/x", none, withoutDrivers)
			.orElseThrow();
		assertThat(settings.effective("useServerPrepStmts")).isEmpty();
		assertThat(settings.effectiveInt("prepStmtCacheSize")).isEmpty();
	}

}
