package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import dev.safedefaults.jdbc.PoolServerVariables;

/**
 * What the server says about a MySQL-protocol pool's sessions, read once per pool and per
 * start on a session of the pool's by {@link PoolServerVariables}.
 *
 * @param waitTimeoutSeconds {@code @@session.wait_timeout} as the pool's sessions see it
 * @param maxPreparedStmtCount the server's {@code @@max_prepared_stmt_count}
 */
record MySqlServerVariables(long waitTimeoutSeconds, long maxPreparedStmtCount) {

	private static final String SQL = "SELECT @@session.wait_timeout, @@max_prepared_stmt_count";

	/** The query, and the bounds of a login made for it. */
	static final PoolServerVariables.SessionQuery<MySqlServerVariables> QUERY = new PoolServerVariables.SessionQuery<>() {

		@Override
		public void boundLogin(Properties properties, int timeoutSeconds) {
			String millis = String.valueOf(timeoutSeconds * 1000);
			// Both drivers take these in milliseconds; with Connector/J properties beat
			// the URL.
			properties.setProperty("connectTimeout", millis);
			properties.setProperty("socketTimeout", millis);
		}

		@Override
		public MySqlServerVariables read(Connection connection, int driverNetworkTimeoutMillis, int timeoutSeconds)
				throws SQLException {
			try (Statement statement = connection.createStatement()) {
				statement.setQueryTimeout(timeoutSeconds);
				try (ResultSet result = statement.executeQuery(SQL)) {
					if (!result.next()) {
						throw new SQLException("The server variables query returned no row");
					}
					return new MySqlServerVariables(result.getLong(1), result.getLong(2));
				}
			}
		}

	};

}
