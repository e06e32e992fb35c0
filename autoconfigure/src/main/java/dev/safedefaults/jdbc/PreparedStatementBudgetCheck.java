package dev.safedefaults.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.Credentials;
import com.zaxxer.hikari.util.DriverDataSource;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;

import org.springframework.beans.factory.ListableBeanFactory;

import static dev.safedefaults.jdbc.MySqlProtocolDriver.CACHE_PREP_STMTS;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.PREP_STMT_CACHE_SIZE;
import static dev.safedefaults.jdbc.MySqlProtocolDriver.USE_SERVER_PREP_STMTS;

/**
 * Compares what the pools may keep prepared on the server (pool size x statement cache x
 * expected instances) with half of the server's {@code @@max_prepared_stmt_count}: when it
 * is exhausted Connector/J silently falls back to client-side statements and MariaDB
 * Connector/J was seen to hang in a socket read. Deferred: it reads the variable once,
 * after startup, on a connection of its own with short timeouts, never through the pool;
 * a server it cannot reach is reported as INFO.
 */
final class PreparedStatementBudgetCheck implements Check {

	static final String PREPARED_STMT_BUDGET = "jdbc.prepared-stmt-budget";

	/** Connect, socket and query timeout of the one query, in seconds. */
	static final int TIMEOUT_SECONDS = 2;

	/**
	 * Reads {@code @@max_prepared_stmt_count} from the server of a pool.
	 */
	@FunctionalInterface
	interface ServerVariableReader {

		long maxPreparedStatementCount(HikariDataSource pool) throws Exception;

	}

	private final ListableBeanFactory beanFactory;

	private final JdbcDefaultsProperties properties;

	private final ServerVariableReader reader;

	PreparedStatementBudgetCheck(ListableBeanFactory beanFactory, JdbcDefaultsProperties properties) {
		this(beanFactory, properties, PreparedStatementBudgetCheck::readOnOwnConnection);
	}

	PreparedStatementBudgetCheck(ListableBeanFactory beanFactory, JdbcDefaultsProperties properties,
			ServerVariableReader reader) {
		this.beanFactory = beanFactory;
		this.properties = properties;
		this.reader = reader;
	}

	@Override
	public boolean deferred() {
		return true;
	}

	@Override
	public String name() {
		return PREPARED_STMT_BUDGET;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		HikariPools.find(this.beanFactory).forEach((beanName, pool) -> {
			Finding finding = check(HikariPools.subject(beanName, pool), pool);
			if (finding != null) {
				findings.add(finding);
			}
		});
		return findings;
	}

	private Finding check(String subject, HikariDataSource pool) {
		PoolDriverSettings settings = HikariPools.settings(pool);
		if (settings == null || !settings.effectiveBoolean(USE_SERVER_PREP_STMTS).orElse(false)
				|| !settings.effectiveBoolean(CACHE_PREP_STMTS).orElse(false)) {
			// Without server prepares kept in a cache, statements do not stay open on the server.
			return null;
		}
		OptionalInt cacheSize = settings.effectiveInt(PREP_STMT_CACHE_SIZE);
		if (cacheSize.isEmpty() || cacheSize.getAsInt() <= 0) {
			return null;
		}
		long budget = (long) pool.getMaximumPoolSize() * cacheSize.getAsInt() * this.properties.getExpectedInstances();
		String formula = pool.getMaximumPoolSize() + " connections x prepStmtCacheSize " + cacheSize.getAsInt() + " x "
				+ this.properties.getExpectedInstances() + " instance(s) = " + budget;
		long serverMax;
		try {
			serverMax = this.reader.maxPreparedStatementCount(pool);
		}
		catch (Exception ex) {
			return Finding.info(PREPARED_STMT_BUDGET, subject,
					"Could not read @@max_prepared_stmt_count from " + settings.maskedUrl() + " within "
							+ TIMEOUT_SECONDS + "s (" + ex.getClass().getSimpleName()
							+ ((ex.getMessage() != null) ? ": " + firstLine(ex.getMessage()) : "")
							+ "), so the prepared statement budget (" + formula + ") was not checked.",
					"Nothing to do if the database was down at startup; the check runs once after each start. "
							+ "Silence with safe-defaults.checks.disabled=" + PREPARED_STMT_BUDGET + ".");
		}
		if (serverMax < 0 || budget * 2 <= serverMax) {
			// Negative: no limit (TiDB's default is -1).
			return null;
		}
		return Finding.warning(PREPARED_STMT_BUDGET, subject,
				"The pools may keep " + formula + " statements prepared on the server, more than half of its "
						+ "max_prepared_stmt_count (" + serverMax + ", shared by every client): once it is exhausted "
						+ "Connector/J silently falls back to client-side statements and MariaDB Connector/J may hang.",
				"Lower safe-defaults.jdbc.prep-stmt-cache-size (or prepStmtCacheSize) or the pool size, or raise "
						+ "the server's max_prepared_stmt_count; set safe-defaults.jdbc.expected-instances to the "
						+ "real number of instances. Silence with safe-defaults.checks.disabled="
						+ PREPARED_STMT_BUDGET + ".");
	}

	private static String firstLine(String message) {
		int newline = message.indexOf('\n');
		return (newline < 0) ? message : message.substring(0, newline);
	}

	/**
	 * Reads the variable on a connection of its own, made like the pool makes its
	 * connections but with short connect and socket timeouts, so that an unreachable
	 * server costs seconds and never touches the pool.
	 * @param pool the pool
	 * @return the server's {@code @@max_prepared_stmt_count}
	 * @throws SQLException when the server cannot be reached or refuses
	 */
	static long readOnOwnConnection(HikariDataSource pool) throws SQLException {
		Properties properties = new Properties();
		properties.putAll(pool.getDataSourceProperties());
		String millis = String.valueOf(TIMEOUT_SECONDS * 1000);
		// Both drivers take these in milliseconds; with Connector/J properties beat the URL.
		properties.setProperty("connectTimeout", millis);
		properties.setProperty("socketTimeout", millis);
		Credentials credentials = (pool.getCredentialsProvider() != null) ? pool.getCredentialsProvider().getCredentials()
				: pool.getCredentials();
		DriverDataSource dataSource = new DriverDataSource(pool.getJdbcUrl(), pool.getDriverClassName(), properties,
				(credentials != null) ? credentials.getUsername() : null,
				(credentials != null) ? credentials.getPassword() : null);
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.setQueryTimeout(TIMEOUT_SECONDS);
			try (ResultSet result = statement.executeQuery("SELECT @@max_prepared_stmt_count")) {
				if (!result.next()) {
					throw new SQLException("SELECT @@max_prepared_stmt_count returned no row");
				}
				return result.getLong(1);
			}
		}
	}

}
