package dev.safedefaults.jdbc;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of the JDBC feature that is not PostgreSQL's alone (incident 5:
 * MySQL-protocol Hikari pools; issue 23: the sessions' timeouts; issue 34: socket
 * timeouts), declared once; pgjdbc's own traps are in {@link PostgreSqlFindings}. The
 * message templates take the pool's masked URL and where a setting came from
 * ({@code set in the URL}, {@code the driver's default}…); the fixes say how to get the
 * starter's setting back, which depends on that origin (see {@link #restore}).
 */
public final class JdbcFindings implements FindingDeclarations {

	/** Args: why (setting and origin), URL, how to restore. */
	static final FindingType SERVER_PREP_STMTS_OFF = FindingType.declare("jdbc.server-prep-stmts-off", WARNING,
			"A MySQL-protocol pool runs without server-side prepared statements (useServerPrepStmts=false, the "
					+ "driver's default with the starter off, or rewriteBatchedStatements=true on MariaDB "
					+ "Connector/J): the database parses every statement again.",
			"Server-side prepared statements are off (%1$s) on %2$s: the database parses every statement again "
					+ "(incident 5: TiDB spent 20-30%% more CPU on it).",
			"%3$s");

	/**
	 * Server prepares and the statement cache both at the driver's default because the
	 * starter is off for this pool: one cause, one finding. Args: URL, how to restore.
	 */
	static final FindingType SERVER_PREP_STMTS_OFF_BECAUSE_STARTER_OFF = SERVER_PREP_STMTS_OFF
		.because("Server-side prepared statements and the prepared statement cache are at the driver's defaults (off) "
				+ "on %1$s: the database parses every statement again (incident 5: TiDB spent 20-30%% more CPU "
				+ "on it).", "%2$s");

	/**
	 * Server prepares on, the cache off. Args: setting and origin, URL, how to restore.
	 */
	static final FindingType STMT_CACHE_OFF = FindingType.declare("jdbc.stmt-cache-off", WARNING,
			"The pool's prepared statement cache is off (cachePrepStmts=false or prepStmtCacheSize=0): with "
					+ "server-side prepares every statement is prepared again; with client-side statements "
					+ "Connector/J parses every statement again.",
			"The prepared statement cache is off (%1$s) on %2$s: every statement is prepared on the server again, "
					+ "one extra round trip and server-side parse per execution.",
			"%3$s");

	/**
	 * Client-side statements (server prepares off) with Connector/J's cache off: the
	 * driver prepares nothing on the server, it parses the SQL again. Args as
	 * {@link #STMT_CACHE_OFF}.
	 */
	static final FindingType STMT_CACHE_OFF_BECAUSE_CLIENT_SIDE = STMT_CACHE_OFF
		.because("The prepared statement cache is off (%1$s) on %2$s: with client-side statements Connector/J parses "
				+ "every statement's SQL again on each prepareStatement().", "%3$s");

	/** Args: limit, origin, URL, how to restore. */
	static final FindingType STMT_CACHE_SQL_LIMIT_LOW = FindingType.declare("jdbc.stmt-cache-sql-limit-low", WARNING,
			"Connector/J's prepStmtCacheSqlLimit is below 2048: longer statements, such as MyBatis', are never "
					+ "cached.",
			"prepStmtCacheSqlLimit=%1$s (%2$s) on %3$s: statements longer than %1$s characters, such as those "
					+ "MyBatis generates, are never cached and are prepared again on every execution.",
			"%4$s");

	/** Args: origin, URL. */
	static final FindingType QUERY_TIMEOUTS_OFF = FindingType.declare("jdbc.query-timeouts-off", WARNING,
			"enableQueryTimeouts=false is in effect (useConfigs=maxPerformance sets it): "
					+ "Statement.setQueryTimeout() and @Transactional(timeout) do nothing.",
			"enableQueryTimeouts=false (%1$s) on %2$s: Statement.setQueryTimeout() and @Transactional(timeout) "
					+ "silently do nothing; a slow query holds its connection and thread for as long as it runs.",
			"Set enableQueryTimeouts=true (safe-defaults adds it next to useConfigs=maxPerformance).");

	/** Args: origin, the SQL that changes the session. */
	static final FindingType LOCAL_SESSION_STATE = FindingType.declare("jdbc.local-session-state", WARNING,
			"useLocalSessionState=true while the pool's connectionInitSql changes isolation, read-only, autocommit "
					+ "or the database: the driver never sees the change.",
			"useLocalSessionState=true (%1$s) while connectionInitSql runs '%2$s': the driver never sees that "
					+ "change and works with the session state it remembers (isolation, read-only, autocommit, "
					+ "database).",
			"Set the state with the pool's own settings (spring.datasource.hikari.transaction-isolation, read-only, "
					+ "auto-commit, catalog) instead of SQL, or set useLocalSessionState=false.");

	/** Args: origin, URL. */
	static final FindingType AUTO_RECONNECT = FindingType.declare("jdbc.auto-reconnect", WARNING,
			"autoReconnect=true: Connector/J reconnects in the middle of a transaction and silently loses the work "
					+ "and session state before it.",
			"autoReconnect=true (%1$s) on %2$s: after a lost connection the driver reconnects in the middle of a "
					+ "transaction, which silently loses the work before it and the session state (Connector/J's "
					+ "documentation advises against it).",
			"Remove autoReconnect=true: Hikari already replaces broken connections.");

	/** Args: origin, URL. */
	static final FindingType MULTI_QUERIES = FindingType.declare("jdbc.multi-queries", WARNING,
			"allowMultiQueries=true: one SQL injection can append any statement.",
			"allowMultiQueries=true (%1$s) on %2$s: one SQL injection can append any statement ('; DROP TABLE ...').",
			"Remove allowMultiQueries=true and send statements one by one (or batch them).");

	/** Args: key, where, driver name, hint (with its leading "; ") or "". */
	static final FindingType IGNORED_PROPERTY = FindingType.declare("jdbc.ignored-property", INFO,
			"A key in the pool's URL or data-source properties that its driver does not know and silently ignores "
					+ "(multiStatements on Connector/J, useConfigs or prepStmtCacheSqlLimit on MariaDB Connector/J, "
					+ "a Connector/J key in the wrong case), read from the driver's own list.",
			"'%1$s' (in the %2$s) is not a %3$s property: the driver silently ignores it%4$s.",
			"Remove it or use the driver's name for it.");

	static final FindingType INFINITE_CONNECTION_TIMEOUT = FindingType.declare("jdbc.infinite-connection-timeout",
			WARNING, "Hikari's connectionTimeout=0: a request waits for ever for a connection instead of failing fast.",
			"connectionTimeout=0: a request waits for ever for a connection when the pool is exhausted or the "
					+ "database is unreachable, and threads pile up instead of failing fast.",
			"Set spring.datasource.hikari.connection-timeout to a few seconds (Hikari's default is 30s).");

	/** Args: the formula, the server's maximum. */
	static final FindingType PREPARED_STMT_BUDGET = FindingType.declare("jdbc.prepared-stmt-budget", WARNING,
			"Pool size × statement cache × safe-defaults.jdbc.expected-instances exceeds half the server's "
					+ "max_prepared_stmt_count (Connector/J then silently stops using server prepares; MariaDB "
					+ "Connector/J may hang). Checked once after startup, off the startup path.",
			"The pools may keep %1$s statements prepared on the server, more than half of its "
					+ "max_prepared_stmt_count (%2$s, shared by every client): once it is exhausted Connector/J "
					+ "silently falls back to client-side statements and MariaDB Connector/J may hang.",
			"Lower safe-defaults.jdbc.prep-stmt-cache-size (or prepStmtCacheSize) or the pool size, or raise the "
					+ "server's max_prepared_stmt_count; set safe-defaults.jdbc.expected-instances to the real number "
					+ "of instances.");

	/** Args: URL, timeout in seconds, the failure, the formula. */
	static final FindingType PREPARED_STMT_BUDGET_UNCHECKED = FindingType.declare("jdbc.prepared-stmt-budget-unchecked",
			INFO,
			"The server's max_prepared_stmt_count could not be read after startup (the database was down or "
					+ "unreachable), so the prepared statement budget was not checked.",
			"Could not read @@max_prepared_stmt_count from %1$s within %2$ss (%3$s), so the prepared statement "
					+ "budget (%4$s) was not checked.",
			"Nothing to do if the database was down at startup; the check runs once after each start.");

	/**
	 * Issue 18. Args: wait_timeout in seconds, URL, maxLifetime, keepaliveTime, an
	 * idleTimeout note (with its leading space) or "", the maxLifetime to set, the
	 * keepaliveTime to set, both in milliseconds: Boot binds Hikari's times as numbers of
	 * milliseconds and refuses "30s".
	 */
	static final FindingType MAX_LIFETIME = FindingType.declare("jdbc.max-lifetime", WARNING,
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
	static final FindingType MAX_LIFETIME_BELOW_HIKARIS_MINIMUM = MAX_LIFETIME.because(MAX_LIFETIME.message(),
			"Hikari cannot retire or ping a connection sooner than 30 s, 30 s before a wait_timeout of %1$s s: raise "
					+ "the sessions' timeout, for example sessionVariables=wait_timeout=600 in the URL "
					+ "(spring.datasource.hikari.data-source-properties.sessionVariables), or the server's.");

	/**
	 * Issue 23: a PostgreSQL pool's sessions closed by {@code idle_session_timeout}.
	 * Args: the timeout (as "60s"), URL, maxLifetime, keepaliveTime, an idleTimeout note
	 * or "", the maxLifetime to set, the keepaliveTime to set.
	 */
	static final FindingType MAX_LIFETIME_ON_POSTGRESQL = MAX_LIFETIME.because(
			"The server closes this pool's sessions after %1$s idle (idle_session_timeout, as the pool's sessions "
					+ "see it on %2$s), but Hikari keeps a connection up to maxLifetime=%3$s and, with "
					+ "keepaliveTime=%4$s, does not ping idle ones in time%5$s: an idle connection is terminated by "
					+ "the server (FATAL 57P05), and the next borrow logs 'Failed to validate connection', waits for "
					+ "the check and opens a new connection.",
			"Set spring.datasource.hikari.max-lifetime=%6$s (milliseconds, at least 30 s below the sessions' "
					+ "idle_session_timeout of %1$s), or keep idle connections alive with "
					+ "spring.datasource.hikari.keepalive-time=%7$s (milliseconds).");

	/**
	 * An idle_session_timeout below 60 s: Hikari can neither retire nor ping a connection
	 * 30 s before it. Args as {@link #MAX_LIFETIME_ON_POSTGRESQL}.
	 */
	static final FindingType MAX_LIFETIME_ON_POSTGRESQL_BELOW_HIKARIS_MINIMUM = MAX_LIFETIME.because(
			MAX_LIFETIME_ON_POSTGRESQL.message(),
			"Hikari cannot retire or ping a connection sooner than 30 s, 30 s before an idle_session_timeout of "
					+ "%1$s: raise the sessions' timeout (options=-c idle_session_timeout=600000 in the URL, "
					+ "ALTER ROLE … SET idle_session_timeout, or the server's), or set it to 0 for this pool's "
					+ "role.");

	/** Args: URL, timeout in seconds, the failure, maxLifetime, keepaliveTime. */
	static final FindingType MAX_LIFETIME_UNCHECKED = FindingType.declare("jdbc.max-lifetime-unchecked", INFO,
			"The sessions' wait_timeout (idle_session_timeout on PostgreSQL) could not be read after startup (the "
					+ "database was down or unreachable), so maxLifetime and keepaliveTime were not compared with it.",
			"Could not read the sessions' wait_timeout from %1$s within %2$ss (%3$s), so maxLifetime (%4$s) and "
					+ "keepaliveTime (%5$s) were not compared with it.",
			"Nothing to do if the database was down at startup; the check runs once after each start.");

	/** Issue 23. Args as {@link #MAX_LIFETIME_UNCHECKED}. */
	static final FindingType MAX_LIFETIME_UNCHECKED_ON_POSTGRESQL = MAX_LIFETIME_UNCHECKED.because(
			"Could not read the sessions' idle_session_timeout from %1$s within %2$ss (%3$s), so maxLifetime (%4$s) "
					+ "and keepaliveTime (%5$s) were not compared with it; nor were the socket and statement "
					+ "timeouts read (jdbc.no-timeouts).",
			MAX_LIFETIME_UNCHECKED.fix());

	/**
	 * Issue 23: a PostgreSQL pool with neither pgjdbc's socketTimeout nor
	 * statement_timeout. Args: URL, "?" or "&amp;" (how a parameter is added to the URL).
	 */
	static final FindingType NO_TIMEOUTS = FindingType.declare("jdbc.no-timeouts", INFO,
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

	/**
	 * Issue 34: a MySQL-protocol pool without a socket timeout; a query timeout does not
	 * count (measured: it never frees a thread whose database stopped answering). Args:
	 * URL, driver, "?" or "&amp;".
	 */
	static final FindingType NO_TIMEOUTS_ON_MYSQL_PROTOCOL = NO_TIMEOUTS.because("Nothing bounds how long a query "
			+ "waits for its answer on %1$s: %2$s's socketTimeout is 0 (its default). A query whose database stopped "
			+ "answering (hung, or a failover or firewall that dropped the connection without closing it) holds its "
			+ "request thread and its connection for ever, as the pool's other connections do one by one; a query "
			+ "timeout (@Transactional(timeout), JdbcTemplate's, jakarta.persistence.query.timeout) does not free "
			+ "it: the driver cancels through the same silent database.",
			"Set socketTimeout, in milliseconds and above your slowest query and any schema migration run through "
					+ "this pool (%3$ssocketTimeout=<ms> in the URL, or "
					+ "spring.datasource.hikari.data-source-properties.socketTimeout=<ms>): a read that waits longer "
					+ "fails and Hikari replaces the connection. Give long reports or migrations a pool of their own "
					+ "without it (docs/jdbc.md#timeouts).");

	/**
	 * Issue 25: the server refused the pool's credentials to the deferred checks, which
	 * log in as the pool does and never try again. Args: URL, the failure.
	 */
	static final FindingType LOGIN_REFUSED = FindingType.declare("jdbc.login-refused", WARNING,
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
	 * Issue 18, measured in AutocommitRoundTripsOnEmbeddedMariaDbTests; the trade of its
	 * fix (issue 23) per page in AutocommitRoundTripsPerPageTests and JpaPagesBenchmark.
	 * No args.
	 */
	static final FindingType AUTOCOMMIT_ROUND_TRIPS = FindingType.declare("jdbc.autocommit-round-trips", INFO,
			"JPA/Hibernate on a MySQL-protocol Hikari pool that auto-commits, without "
					+ "hibernate.connection.provider_disables_autocommit: every transaction sends 2 extra statements, "
					+ "SET autocommit=0 before it and SET autocommit=1 after its COMMIT. The fix costs one ROLLBACK "
					+ "per connection handed back after queries outside a transaction.",
			"Hibernate runs on a pool that auto-commits: every transaction costs 2 extra round trips to the "
					+ "database, SET autocommit=0 before its first statement and SET autocommit=1 after its COMMIT "
					+ "(measured with Spring Data JPA on MariaDB: a read-only findById sends 6 statements instead of "
					+ "4, a transaction that reads and updates one row 5 instead of 3). The fix is a trade: on a pool "
					+ "that does not auto-commit, Hikari rolls back every connection handed back after a query "
					+ "outside a transaction, one ROLLBACK each (measured: a page of two repository queries without "
					+ "@Transactional sends 3 statements instead of 2 with spring.jpa.open-in-view on, Boot's "
					+ "default, where the page holds one connection; 4 instead of 2 with open-in-view off, one "
					+ "connection per query).",
			"Set spring.datasource.hikari.auto-commit=false and "
					+ "spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true (Boot adds the "
					+ "second itself when it sees the first). It pays when the application's transactions outnumber "
					+ "the connections it hands back after work outside one (2 statements saved per transaction, 1 "
					+ "ROLLBACK added per such hand-back; with open-in-view on, at most one per request). It does not "
					+ "pay when most queries run outside transactions, above all with spring.jpa.open-in-view=false: "
					+ "query methods declared on a Spring Data repository, EntityManager or JdbcTemplate reads, "
					+ "called without @Transactional (put those callers in a transaction first, or keep auto-commit "
					+ "and set safe-defaults.checks.disabled=jdbc.autocommit-round-trips). Caveat: with a pool that "
					+ "does not auto-commit, a write outside a transaction (a JdbcTemplate update without "
					+ "@Transactional) is never committed: Hikari rolls it back when the connection returns to the "
					+ "pool.");

	/** No args. */
	static final FindingType AUTOCOMMIT_MISMATCH = FindingType.declare("jdbc.autocommit-mismatch", WARNING,
			"hibernate.connection.provider_disables_autocommit=true on a Hikari pool that auto-commits: Hibernate "
					+ "never switches auto-commit off, so each statement commits on its own and a rollback undoes "
					+ "nothing.",
			"hibernate.connection.provider_disables_autocommit=true tells Hibernate that the pool's connections come "
					+ "with auto-commit off, but the pool auto-commits: Hibernate never switches it off, so each "
					+ "statement of a transaction commits on its own and a rollback undoes nothing (MySQL "
					+ "Connector/J refuses the transaction's COMMIT instead: 'Can't call commit when "
					+ "autocommit=true').",
			"Set spring.datasource.hikari.auto-commit=false, or remove provider_disables_autocommit.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(SERVER_PREP_STMTS_OFF, STMT_CACHE_OFF, STMT_CACHE_SQL_LIMIT_LOW, QUERY_TIMEOUTS_OFF,
				LOCAL_SESSION_STATE, AUTO_RECONNECT, MULTI_QUERIES, IGNORED_PROPERTY, INFINITE_CONNECTION_TIMEOUT,
				PREPARED_STMT_BUDGET, PREPARED_STMT_BUDGET_UNCHECKED, MAX_LIFETIME, MAX_LIFETIME_UNCHECKED,
				LOGIN_REFUSED, AUTOCOMMIT_ROUND_TRIPS, AUTOCOMMIT_MISMATCH, NO_TIMEOUTS);
	}

	/**
	 * How to get a starter default back: remove the user's setting, or switch the feature
	 * on again when the driver's default is in effect.
	 * @param origin where the value in effect comes from
	 * @param key the setting
	 * @param starterSetting what the starter sets instead
	 * @return the fix
	 */
	static String restore(String origin, String key, String starterSetting) {
		if (origin.equals(PoolDriverSettings.DRIVER_DEFAULT)) {
			return "Let safe-defaults set " + starterSetting
					+ " (safe-defaults.jdbc.enabled=true, the default), or set it yourself.";
		}
		return "Remove " + key + " (" + origin + "): safe-defaults then sets " + starterSetting + ".";
	}

}
