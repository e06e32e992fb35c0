package dev.safedefaults.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.Credentials;
import com.zaxxer.hikari.util.DriverDataSource;

/**
 * One query on a connection of its own, made the way a pool makes its connections (its
 * driver, URL, data-source properties, credentials and {@code connectionInitSql}) but
 * with short connect, socket and query timeouts, so that an unreachable server costs
 * seconds and the pool is never touched. The session it reads is the one the pool's
 * connections get, {@code sessionVariables} included.
 */
final class OwnConnection {

	private static final Pattern SQL_STATE = Pattern.compile("[0-9A-Z]{5}");

	/** Connect, socket and query timeout of the one query, in seconds. */
	static final int TIMEOUT_SECONDS = 2;

	private OwnConnection() {
	}

	/**
	 * Runs a query that returns one number.
	 * @param pool the pool whose connections to imitate
	 * @param sql the query, one row, one column
	 * @return the number
	 * @throws SQLException when the server cannot be reached, refuses, or returns no row
	 */
	static long queryLong(HikariDataSource pool, String sql) throws SQLException {
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
			if (pool.getConnectionInitSql() != null && !pool.getConnectionInitSql().isBlank()) {
				// What the pool runs on each new connection (it may set session variables).
				statement.execute(pool.getConnectionInitSql());
			}
			try (ResultSet result = statement.executeQuery(sql)) {
				if (!result.next()) {
					throw new SQLException(sql + " returned no row");
				}
				return result.getLong(1);
			}
		}
	}

	/**
	 * A failure as a finding shows it, rendered only from what is known to be safe: the
	 * exception's class, its SQLState when it has the standard form, and the class of its root
	 * cause. Never the driver's message: a driver that cannot parse a URL quotes the part it
	 * choked on, which can be a piece of a password.
	 * @param ex the failure
	 * @return the description
	 */
	static String describe(Exception ex) {
		StringBuilder description = new StringBuilder(ex.getClass().getSimpleName());
		if (ex instanceof SQLException sql && sql.getSQLState() != null
				&& SQL_STATE.matcher(sql.getSQLState()).matches()) {
			description.append(", SQLState ").append(sql.getSQLState());
		}
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		if (root != ex) {
			description.append(", caused by ").append(root.getClass().getSimpleName());
		}
		return description.toString();
	}

}
