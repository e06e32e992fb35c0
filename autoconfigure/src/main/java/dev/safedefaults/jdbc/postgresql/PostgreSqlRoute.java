package dev.safedefaults.jdbc.postgresql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.jspecify.annotations.Nullable;
import org.postgresql.core.BaseConnection;
import org.postgresql.jdbc.PreferQueryMode;

import org.springframework.util.ClassUtils;

/**
 * How a PostgreSQL pool's session reaches its server, and whether pgjdbc prepares
 * statements on it (issue 23), read on the one session per pool that
 * {@link dev.safedefaults.jdbc.PoolServerVariables} makes. A connection pooler that hands
 * a server session to a client per transaction (PgBouncer in transaction or statement
 * mode, and the poolers built like it) answers the client's login itself, with a process
 * id of its own in the {@code BackendKeyData} it sends; the session's
 * {@code pg_backend_pid()} then differs from the one pgjdbc was given. A plain TCP proxy
 * (a port mapping, a cloud SQL proxy) passes the server's login through, so the two agree
 * there, even when the address the pool dialled is not the one the server answers on.
 * <p>
 * Only this class touches pgjdbc's own types: it is loaded only for a pool that
 * {@link PostgreSqlSession#isPostgreSql} recognises, and reads nothing when pgjdbc is not
 * on the class path.
 *
 * @param dialled the host and port pgjdbc connected to (the pool's URL, one of its hosts)
 * @param serverAddress {@code inet_server_addr()}: the address the server answers on,
 * {@code null} over a Unix socket
 * @param serverPort {@code inet_server_port()}, 0 over a Unix socket
 * @param driverBackendPid the process id pgjdbc was given at login
 * @param serverBackendPid the session's {@code pg_backend_pid()}
 * @param prepareThreshold pgjdbc's {@code prepareThreshold} on the connection (the URL's,
 * the data-source property's, or its default 5)
 * @param simpleQueryMode whether pgjdbc runs with {@code preferQueryMode=simple}, which
 * prepares nothing on the server
 */
record PostgreSqlRoute(String dialled, @Nullable String serverAddress, int serverPort, int driverBackendPid,
		int serverBackendPid, int prepareThreshold, boolean simpleQueryMode) {

	private static final String PGJDBC_CONNECTION = "org.postgresql.core.BaseConnection";

	private static final String QUERY = "SELECT pg_backend_pid(), host(inet_server_addr()), inet_server_port()";

	/**
	 * Reads the route of a pgjdbc session.
	 * @param connection a session of the pool's, its network timeout already bounded
	 * @param queryTimeoutSeconds the query's timeout
	 * @return the route, or {@code null} when the connection is not pgjdbc's
	 * @throws SQLException when the query fails
	 */
	static @Nullable PostgreSqlRoute read(Connection connection, int queryTimeoutSeconds) throws SQLException {
		if (!ClassUtils.isPresent(PGJDBC_CONNECTION, PostgreSqlRoute.class.getClassLoader())
				|| !connection.isWrapperFor(BaseConnection.class)) {
			return null;
		}
		BaseConnection pgjdbc = connection.unwrap(BaseConnection.class);
		try (Statement statement = connection.createStatement()) {
			statement.setQueryTimeout(queryTimeoutSeconds);
			try (ResultSet result = statement.executeQuery(QUERY)) {
				if (!result.next()) {
					throw new SQLException("The session's route query returned no row");
				}
				return new PostgreSqlRoute(pgjdbc.getQueryExecutor().getHostSpec().toString(), result.getString(2),
						result.getInt(3), pgjdbc.getBackendPID(), result.getInt(1), pgjdbc.getPrepareThreshold(),
						pgjdbc.getPreferQueryMode() == PreferQueryMode.SIMPLE);
			}
		}
	}

	/**
	 * Whether something between the pool and the server answered the login in the
	 * server's place: a connection pooler.
	 * @return whether a pooler sits between them
	 */
	boolean throughPooler() {
		return this.driverBackendPid != this.serverBackendPid;
	}

	/**
	 * Whether pgjdbc names statements on the server: from the {@code prepareThreshold}-th
	 * execution of a statement (every execution when it is negative), never with 0 or in
	 * the simple query mode.
	 * @return whether server-side prepared statements are used
	 */
	boolean preparesOnTheServer() {
		return this.prepareThreshold != 0 && !this.simpleQueryMode;
	}

	/**
	 * The address the server answers on, as a message shows it.
	 * @return {@code host:port}, or a note for a Unix socket
	 */
	String server() {
		return (this.serverAddress != null) ? this.serverAddress + ":" + this.serverPort : "a Unix socket";
	}

}
