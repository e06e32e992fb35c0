package dev.safedefaults.jdbc.postgresql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.PoolServerVariables;
import org.jspecify.annotations.Nullable;

/**
 * What a PostgreSQL pool's own session says about its timeouts and its route (issue 23),
 * read on a session of the pool's by {@link PoolServerVariables}: from
 * {@code pg_settings}, which shows the session's values (the URL's {@code options=-c …},
 * the role's and database's settings and {@code connectionInitSql} included), and the
 * socket timeout pgjdbc put on the connection (its {@code socketTimeout}, from the URL or
 * the data-source properties), read before the check sets its own.
 *
 * @param idleSessionTimeoutMillis {@code idle_session_timeout} (PostgreSQL 14+; 0 when
 * off or when the server is older)
 * @param idleInTransactionSessionTimeoutMillis
 * {@code idle_in_transaction_session_timeout}, 0 when off
 * @param statementTimeoutMillis {@code statement_timeout}, 0 when off
 * @param socketTimeoutMillis the connection's network timeout as pgjdbc set it, 0 when
 * none
 * @param route how the session reaches the server and whether pgjdbc prepares statements
 * on it, {@code null} when the connection is not pgjdbc's
 */
record PostgreSqlSession(long idleSessionTimeoutMillis, long idleInTransactionSessionTimeoutMillis,
		long statementTimeoutMillis, int socketTimeoutMillis, @Nullable PostgreSqlRoute route) {

	/**
	 * All three in milliseconds, their base unit; a setting the server lacks has no row.
	 */
	private static final String SQL = "SELECT name, setting FROM pg_settings WHERE name IN "
			+ "('idle_session_timeout', 'idle_in_transaction_session_timeout', 'statement_timeout')";

	/** The query, and the bounds of a login made for it. */
	static final PoolServerVariables.SessionQuery<PostgreSqlSession> QUERY = new PoolServerVariables.SessionQuery<>() {

		@Override
		public void boundLogin(Properties properties, int timeoutSeconds) {
			// pgjdbc takes these in seconds. No socketTimeout: the pool's own is read
			// from
			// the connection, and the check bounds the socket itself once connected.
			properties.setProperty("connectTimeout", String.valueOf(timeoutSeconds));
			properties.setProperty("loginTimeout", String.valueOf(timeoutSeconds));
		}

		@Override
		public PostgreSqlSession read(Connection connection, int driverNetworkTimeoutMillis, int timeoutSeconds)
				throws SQLException {
			return PostgreSqlSession.read(connection, driverNetworkTimeoutMillis, timeoutSeconds);
		}

	};

	/**
	 * Whether a pool connects with pgjdbc: its driver class when set, else its URL.
	 * @param pool the pool
	 * @return whether it is a PostgreSQL pool
	 */
	static boolean isPostgreSql(HikariDataSource pool) {
		String driverClassName = pool.getDriverClassName();
		if (driverClassName != null && !driverClassName.isBlank()) {
			return driverClassName.strip().equals("org.postgresql.Driver");
		}
		String url = pool.getJdbcUrl();
		return url != null && url.strip().toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:");
	}

	/**
	 * Reads the session's timeouts and its route.
	 * @param connection a session of the pool's, its network timeout already bounded
	 * @param socketTimeoutMillis the network timeout pgjdbc had put on it
	 * @param queryTimeoutSeconds the query's timeout
	 * @return the reading
	 * @throws SQLException when the query fails
	 */
	static PostgreSqlSession read(Connection connection, int socketTimeoutMillis, int queryTimeoutSeconds)
			throws SQLException {
		Map<String, Long> settings = new HashMap<>();
		try (Statement statement = connection.createStatement()) {
			statement.setQueryTimeout(queryTimeoutSeconds);
			try (ResultSet result = statement.executeQuery(SQL)) {
				while (result.next()) {
					settings.put(result.getString(1), result.getLong(2));
				}
			}
		}
		return new PostgreSqlSession(millis(settings.get("idle_session_timeout")),
				millis(settings.get("idle_in_transaction_session_timeout")), millis(settings.get("statement_timeout")),
				socketTimeoutMillis, PostgreSqlRoute.read(connection, queryTimeoutSeconds));
	}

	private static long millis(@Nullable Long setting) {
		return (setting != null) ? setting : 0;
	}

}
