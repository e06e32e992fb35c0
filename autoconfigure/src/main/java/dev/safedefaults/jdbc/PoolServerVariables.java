package dev.safedefaults.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariCredentialsProvider;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import com.zaxxer.hikari.pool.HikariPool;
import com.zaxxer.hikari.util.Credentials;
import com.zaxxer.hikari.util.DriverDataSource;
import org.jspecify.annotations.Nullable;

/**
 * The server variables the deferred checks compare a pool with, read once per pool and
 * per start, logged in exactly as the pool logs in (issue 25: a check that logged in with
 * other credentials than the pool cost two failed logins per start and, with MariaDB's
 * {@code max_password_errors}, blocked the account).
 * <ul>
 * <li>A running pool lends one of its connections (waiting at most
 * {@value #TIMEOUT_SECONDS} s): no login of the check's own, the session is the pool's
 * ({@code sessionVariables}, {@code connectionInitSql}), and the query only reads it; the
 * network timeout the check sets is put back by Hikari when the connection returns.</li>
 * <li>A pool not started yet is not started by a check (that would open
 * {@code minimumIdle} connections the application may have chosen to open later): the
 * check opens one connection the way Hikari's {@code PoolBase} would, through Hikari's
 * own {@link DriverDataSource} with the same precedence (credentials provider, else the
 * pool's user and password, which beat a {@code password} data-source property when a
 * user is set), with short connect and socket timeouts.</li>
 * </ul>
 * What is read depends on the pool's driver, and is said by the {@link SessionQuery} of
 * the driver's sub-package: {@code wait_timeout} and {@code max_prepared_stmt_count} on a
 * MySQL-protocol pool ({@code jdbc.mysql}), the session's timeouts and pgjdbc's socket
 * timeout on a PostgreSQL one ({@code jdbc.postgresql}, issue 23), on the same one
 * session.
 * <p>
 * Whatever the outcome, it is kept: the second check asking about a pool gets the same
 * reading or the same failure, so a start makes at most one attempt per pool, and a
 * refused login is never repeated.
 */
public final class PoolServerVariables {

	/** Connect, socket, borrow and query timeout of the one query, in seconds. */
	public static final int TIMEOUT_SECONDS = 2;

	private static final int TIMEOUT_MILLIS = TIMEOUT_SECONDS * 1000;

	private static final Pattern SQL_STATE = Pattern.compile("[0-9A-Z]{5}");

	/**
	 * SQLStates of a refused login: the standard class 28 ("invalid authorization
	 * specification") and PostgreSQL's 28P01.
	 */
	private static final Set<String> LOGIN_REFUSED_STATES = Set.of("28000", "28P01");

	/**
	 * Vendor codes of a refused login: access denied (1045), MariaDB's blocked and locked
	 * accounts (4150, 4151), MySQL's locked account and temporarily locked one (3118,
	 * 3955).
	 */
	private static final Set<Integer> LOGIN_REFUSED_CODES = Set.of(1045, 4150, 4151, 3118, 3955);

	/**
	 * What one driver reads on a session of a pool's: the timeouts a connection made for
	 * the reading gets, and the query.
	 *
	 * @param <T> what the reading is
	 */
	public interface SessionQuery<T> {

		/**
		 * Bounds the login of a connection the check opens itself (a pool not started
		 * yet), in the driver's own properties and units.
		 * @param properties the pool's data-source properties, copied
		 * @param timeoutSeconds the bound, in seconds
		 */
		void boundLogin(Properties properties, int timeoutSeconds);

		/**
		 * Reads the session.
		 * @param connection a session of the pool's, its network timeout already bounded
		 * @param driverNetworkTimeoutMillis the network timeout the driver had put on it
		 * @param timeoutSeconds the query's timeout
		 * @return the reading
		 * @throws SQLException when the query fails
		 */
		T read(Connection connection, int driverNetworkTimeoutMillis, int timeoutSeconds) throws SQLException;

	}

	/** Per pool: its reading, or the exception its one attempt ended with. */
	private final Map<HikariDataSource, Object> outcomes = new IdentityHashMap<>();

	private final Set<HikariDataSource> refusalsReported = Collections.newSetFromMap(new IdentityHashMap<>());

	/**
	 * A pool's reading, made on the first call for this pool, kept for the next ones: one
	 * session per pool and per start, whichever check asks first. A pool is of one
	 * driver, so every check that asks about it asks with that driver's query.
	 * @param <T> what the reading is
	 * @param pool the pool
	 * @param query the driver's query
	 * @return what the session says
	 * @throws Exception the failure of the one attempt, again on every call
	 */
	public <T> T read(HikariDataSource pool, SessionQuery<T> query) throws Exception {
		@SuppressWarnings("unchecked")
		T reading = (T) outcome(pool, query);
		return reading;
	}

	private synchronized Object outcome(HikariDataSource pool, SessionQuery<?> query) throws Exception {
		Object outcome = this.outcomes.get(pool);
		if (outcome == null) {
			try {
				outcome = query(pool, query);
			}
			catch (Exception ex) {
				outcome = ex;
			}
			this.outcomes.put(pool, outcome);
		}
		if (outcome instanceof Exception ex) {
			throw ex;
		}
		return outcome;
	}

	/**
	 * Whether a refused login of this pool is still to be reported: true once per pool,
	 * so that the checks sharing the one attempt raise one finding between them.
	 * @param pool the pool
	 * @return whether the caller reports it
	 */
	public synchronized boolean reportsRefusal(HikariDataSource pool) {
		return this.refusalsReported.add(pool);
	}

	/** A session of the pool's, and the network timeout its driver had put on it. */
	private record PoolSession(Connection connection, int driverNetworkTimeoutMillis) {
	}

	private static Object query(HikariDataSource pool, SessionQuery<?> query) throws SQLException {
		PoolSession session = connect(pool, query);
		try (Connection connection = session.connection()) {
			return query.read(connection, session.driverNetworkTimeoutMillis(), TIMEOUT_SECONDS);
		}
	}

	private static PoolSession connect(HikariDataSource pool, SessionQuery<?> query) throws SQLException {
		if (pool.isClosed()) {
			// The application closed it: nobody logs in with it any more, nor does a
			// check.
			throw new SQLException("The pool is closed");
		}
		HikariPoolMXBean running = pool.isRunning() ? pool.getHikariPoolMXBean() : null;
		if (running instanceof HikariPool hikariPool) {
			Connection connection = hikariPool.getConnection(TIMEOUT_MILLIS);
			try {
				// Hikari resets a changed network timeout when the connection returns.
				return new PoolSession(connection, boundNetworkTimeout(connection));
			}
			catch (SQLException | RuntimeException ex) {
				connection.close();
				throw ex;
			}
		}
		return connectAsThePoolWould(pool, query);
	}

	/** Reads the connection's network timeout, then bounds it for the check's query. */
	private static int boundNetworkTimeout(Connection connection) throws SQLException {
		int driverNetworkTimeout = connection.getNetworkTimeout();
		connection.setNetworkTimeout(Runnable::run, TIMEOUT_MILLIS);
		return driverNetworkTimeout;
	}

	/**
	 * One connection made as Hikari's {@code PoolBase} makes the pool's (HikariCP 5 to
	 * 7): credentials from the provider, else the pool's; Hikari's
	 * {@link DriverDataSource} over the URL, driver and data-source properties;
	 * {@code getConnection(user, password)} when there is a user (the pool's password
	 * then beats a {@code password} property), else {@code getConnection()}; then
	 * {@code connectionInitSql}.
	 */
	private static PoolSession connectAsThePoolWould(HikariDataSource pool, SessionQuery<?> query) throws SQLException {
		if (pool.getDataSource() != null || pool.getDataSourceClassName() != null || pool.getDataSourceJNDI() != null) {
			// Hikari would use that DataSource, not the URL: nothing to imitate it with.
			throw new SQLException("The pool's connections come from a DataSource, not from its URL");
		}
		Properties properties = new Properties();
		properties.putAll(pool.getDataSourceProperties());
		query.boundLogin(properties, TIMEOUT_SECONDS);
		HikariCredentialsProvider provider = pool.getCredentialsProvider();
		Credentials credentials = (provider != null) ? provider.getCredentials() : pool.getCredentials();
		String user = (credentials != null) ? credentials.getUsername() : null;
		String password = (credentials != null) ? credentials.getPassword() : null;
		DriverDataSource dataSource = new DriverDataSource(pool.getJdbcUrl(), pool.getDriverClassName(), properties,
				user, password);
		Connection connection = (user != null) ? dataSource.getConnection(user, password) : dataSource.getConnection();
		try {
			int driverNetworkTimeout = boundNetworkTimeout(connection);
			String initSql = pool.getConnectionInitSql();
			if (initSql != null && !initSql.isBlank()) {
				try (Statement statement = connection.createStatement()) {
					// What the pool runs on each new connection (it may set session
					// variables).
					statement.setQueryTimeout(TIMEOUT_SECONDS);
					statement.execute(initSql);
				}
			}
			return new PoolSession(connection, driverNetworkTimeout);
		}
		catch (SQLException | RuntimeException ex) {
			connection.close();
			throw ex;
		}
	}

	/**
	 * Whether a failure is the server refusing the credentials (or the account), anywhere
	 * in its causes: Hikari wraps the driver's exception when a borrow fails.
	 * @param ex the failure
	 * @return whether the login was refused
	 */
	public static boolean isLoginRefused(Throwable ex) {
		return loginRefusal(ex) != null;
	}

	private static @Nullable SQLException loginRefusal(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof SQLException sql
					&& ((sql.getSQLState() != null && LOGIN_REFUSED_STATES.contains(sql.getSQLState()))
							|| LOGIN_REFUSED_CODES.contains(sql.getErrorCode()))) {
				return sql;
			}
		}
		return null;
	}

	/**
	 * A failure as a finding shows it, rendered only from what is known to be safe: the
	 * exception's class, its SQLState when it has the standard form, and the class of its
	 * root cause (for a refused login, the refusal itself). Never the driver's message: a
	 * driver that cannot parse a URL quotes the part it choked on, which can be a piece
	 * of a password, and a refused login names the user.
	 * @param ex the failure
	 * @return the description
	 */
	public static String describe(Exception ex) {
		SQLException refusal = loginRefusal(ex);
		Exception described = (refusal != null) ? refusal : ex;
		StringBuilder description = new StringBuilder(described.getClass().getSimpleName());
		if (described instanceof SQLException sql && sql.getSQLState() != null
				&& SQL_STATE.matcher(sql.getSQLState()).matches()) {
			description.append(", SQLState ").append(sql.getSQLState());
		}
		if (refusal != null && refusal.getErrorCode() != 0) {
			description.append(", error ").append(refusal.getErrorCode());
		}
		Throwable root = described;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		if (root != described) {
			description.append(", caused by ").append(root.getClass().getSimpleName());
		}
		return description.toString();
	}

}
