package dev.safedefaults.jdbc;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * The findings of the JDBC feature that every driver shares (the Hikari settings, the
 * sessions' idle timeout against maxLifetime and keepaliveTime, a refused login of the
 * deferred checks, no timeout on a query), declared once; each driver's own are in its
 * sub-package ({@code MySqlProtocolFindings}, {@code PostgreSqlFindings}), which also
 * declares its variants of these. Ids are public API: the catalogue in docs/findings.md
 * lists them.
 */
public final class JdbcFindings implements FindingDeclarations {

	public static final FindingType INFINITE_CONNECTION_TIMEOUT = FindingType.declare(
			"jdbc.infinite-connection-timeout", WARNING,
			"Hikari's connectionTimeout=0: a request waits for ever for a connection instead of failing fast.",
			"connectionTimeout=0: a request waits for ever for a connection when the pool is exhausted or the "
					+ "database is unreachable, and threads pile up instead of failing fast.",
			"Set spring.datasource.hikari.connection-timeout to a few seconds (Hikari's default is 30s).");

	/**
	 * Issue 18. Args: wait_timeout in seconds, URL, maxLifetime, keepaliveTime, an
	 * idleTimeout note (with its leading space) or "", the maxLifetime to set, the
	 * keepaliveTime to set, both in milliseconds: Boot binds Hikari's times as numbers of
	 * milliseconds and refuses "30s".
	 */
	public static final FindingType MAX_LIFETIME = FindingType.declare("jdbc.max-lifetime", WARNING,
			"The server closes the pool's idle sessions (wait_timeout as the pool's own sessions see it, "
					+ "sessionVariables included; idle_session_timeout on PostgreSQL) before Hikari retires them (maxLifetime not 30 s shorter) or pings "
					+ "them (keepaliveTime off or not 30 s shorter): the next borrow logs \"Failed to validate "
					+ "connection\" and opens a new one. Checked once after startup, off the startup path.",
			"The server closes this pool's sessions after %1$s s idle (wait_timeout, as the pool's sessions see it "
					+ "on %2$s), but Hikari keeps a connection up to maxLifetime=%3$s and, with keepaliveTime=%4$s, "
					+ "does not ping idle ones in time%5$s: an idle connection dies on the server, and the next "
					+ "borrow logs 'Failed to validate connection', waits for the check and opens a new connection.",
			"Set spring.datasource.hikari.max-lifetime=%6$s (milliseconds, at least 30 s below the server's "
					+ "wait_timeout of %1$s s), or keep idle connections alive with "
					+ "spring.datasource.hikari.keepalive-time=%7$s (milliseconds).");

	/**
	 * A wait_timeout below 60 s: Hikari can neither retire nor ping a connection 30 s
	 * before it. Args as {@link #MAX_LIFETIME}.
	 */
	public static final FindingType MAX_LIFETIME_BELOW_HIKARIS_MINIMUM = MAX_LIFETIME.because(MAX_LIFETIME.message(),
			"Hikari cannot retire or ping a connection sooner than 30 s, 30 s before a wait_timeout of %1$s s: raise "
					+ "the sessions' timeout, for example sessionVariables=wait_timeout=600 in the URL "
					+ "(spring.datasource.hikari.data-source-properties.sessionVariables), or the server's.");

	/** Args: URL, timeout in seconds, the failure, maxLifetime, keepaliveTime. */
	public static final FindingType MAX_LIFETIME_UNCHECKED = FindingType.declare("jdbc.max-lifetime-unchecked", INFO,
			"The sessions' wait_timeout (idle_session_timeout on PostgreSQL) could not be read after startup (the "
					+ "database was down or unreachable), so maxLifetime and keepaliveTime were not compared with it.",
			"Could not read the sessions' wait_timeout from %1$s within %2$ss (%3$s), so maxLifetime (%4$s) and "
					+ "keepaliveTime (%5$s) were not compared with it.",
			"Nothing to do if the database was down at startup; the check runs once after each start.");

	/**
	 * Issue 25: the server refused the pool's credentials to the deferred checks, which
	 * log in as the pool does and never try again. Args: URL, the failure.
	 */
	public static final FindingType LOGIN_REFUSED = FindingType.declare("jdbc.login-refused", WARNING,
			"The server refused the pool's credentials (SQLState 28000 or 28P01, MySQL/MariaDB error 1045) when the "
					+ "deferred checks logged in as the pool does: the pool cannot connect either. The checks tried "
					+ "once and did not try again, so that they never add to the failed logins that lock an account "
					+ "(MariaDB's max_password_errors).",
			"The server at %1$s refused the pool's credentials (%2$s): the pool's own connections will be refused "
					+ "too. The deferred checks tried once, with the credentials the pool uses, and did not try again.",
			"Correct the pool's user or password (spring.datasource.username/password, a password in "
					+ "spring.datasource.hikari.data-source-properties, or the credentials provider); if the server "
					+ "already blocked the account, unblock it (MariaDB: FLUSH PRIVILEGES).");

	/**
	 * Issue 23: a PostgreSQL pool with neither pgjdbc's socketTimeout nor
	 * statement_timeout. Args: URL, "?" or "&amp;" (how a parameter is added to the URL).
	 */
	public static final FindingType NO_TIMEOUTS = FindingType.declare("jdbc.no-timeouts", INFO,
			"A pool whose driver waits for ever for an answer (socketTimeout=0, the default of pgjdbc, MySQL "
					+ "Connector/J and MariaDB Connector/J; on PostgreSQL, no statement_timeout either): a query on a "
					+ "database that stopped answering, or on a half-open connection, holds its request thread and "
					+ "its connection for ever. No default is applied. PostgreSQL pools are checked once after "
					+ "startup, off the startup path.",
			"Nothing bounds how long a query waits on %1$s: pgjdbc's socketTimeout is 0 and the sessions' "
					+ "statement_timeout is 0. A query the server runs for ever, or one whose connection went "
					+ "half-open (the server, a proxy or a network path gone without closing it after taking the "
					+ "query), can hold its request thread and its connection for ever; a few of them exhaust the "
					+ "pool.",
			"Set pgjdbc's socketTimeout, in seconds and above your slowest query (%2$ssocketTimeout=<seconds> in "
					+ "the URL, or spring.datasource.hikari.data-source-properties.socketTimeout): it bounds every "
					+ "read, on a half-open connection too. A statement_timeout (options=-c statement_timeout=<ms> "
					+ "in the URL, or ALTER ROLE … SET statement_timeout) stops slow queries on the server but "
					+ "does not help on a half-open connection.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(INFINITE_CONNECTION_TIMEOUT, MAX_LIFETIME, MAX_LIFETIME_UNCHECKED, LOGIN_REFUSED, NO_TIMEOUTS);
	}

}
