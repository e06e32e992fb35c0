package dev.safedefaults.jdbc.mysql;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;
import dev.safedefaults.jdbc.JdbcFindings;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * The findings of the JDBC feature that only a MySQL-protocol pool can raise (incident 5:
 * MySQL Connector/J and MariaDB Connector/J settings; the server's prepared-statement
 * budget; issue 18: Hibernate's auto-commit round trips; issue 34: the drivers' socket
 * timeout), declared once; the findings every driver shares are in {@link JdbcFindings}.
 * The message templates take the pool's masked URL and where a setting came from
 * ({@code set in the URL}, {@code the driver's default}…); the fixes say how to get the
 * starter's setting back, which depends on that origin (see {@link #restore}).
 */
public final class MySqlProtocolFindings implements FindingDeclarations {

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
	 * Issue 34: a MySQL-protocol pool without a socket timeout; a query timeout does not
	 * count (measured: it never frees a thread whose database stopped answering). Args:
	 * URL, driver, "?" or "&amp;".
	 */
	static final FindingType NO_TIMEOUTS_ON_MYSQL_PROTOCOL = JdbcFindings.NO_TIMEOUTS
		.because("Nothing bounds how long a query "
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
				LOCAL_SESSION_STATE, AUTO_RECONNECT, MULTI_QUERIES, IGNORED_PROPERTY, PREPARED_STMT_BUDGET,
				PREPARED_STMT_BUDGET_UNCHECKED, AUTOCOMMIT_ROUND_TRIPS, AUTOCOMMIT_MISMATCH);
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
