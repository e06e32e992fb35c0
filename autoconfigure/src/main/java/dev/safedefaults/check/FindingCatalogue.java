package dev.safedefaults.check;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every finding id safe-defaults can raise, whether or not the feature that raises it is
 * active in this application. Ids are public API: {@code safe-defaults.checks.disabled} is
 * validated against this list, and the README's findings catalogue documents each one.
 * A feature that adds a finding adds its entry here the same day.
 */
public final class FindingCatalogue {

	/**
	 * One documented finding id.
	 *
	 * @param id the stable dotted id
	 * @param severity the severity it is raised with
	 * @param meaning what it means
	 * @param fix how to fix it
	 */
	public record Entry(String id, Severity severity, String meaning, String fix) {
	}

	/** Id of the finding raised when a check itself fails or times out. */
	public static final String CHECKS_FAILED = "checks.failed";

	private static final Map<String, Entry> ENTRIES = index(List.of(
			new Entry(CHECKS_FAILED, Severity.WARNING,
					"A check threw an exception or did not finish in time; what it looks for was not checked.",
					"Report it with the exception named in the message; silence it with "
							+ "safe-defaults.checks.disabled=checks.failed."),
			// JDBC, incident 5: MySQL-protocol Hikari pools (MySQL Connector/J, MariaDB Connector/J).
			new Entry("jdbc.server-prep-stmts-off", Severity.WARNING,
					"A MySQL-protocol pool runs without server-side prepared statements (useServerPrepStmts=false, "
							+ "or rewriteBatchedStatements=true on MariaDB Connector/J): the database parses every "
							+ "statement again.",
					"Remove the setting; safe-defaults sets useServerPrepStmts=true unless "
							+ "safe-defaults.jdbc.enabled=false."),
			new Entry("jdbc.stmt-cache-off", Severity.WARNING,
					"The pool's prepared statement cache is off (cachePrepStmts=false or prepStmtCacheSize=0): "
							+ "every statement is prepared again.",
					"Remove the setting; safe-defaults sets cachePrepStmts=true and prepStmtCacheSize."),
			new Entry("jdbc.stmt-cache-sql-limit-low", Severity.WARNING,
					"Connector/J's prepStmtCacheSqlLimit is below 2048: longer statements, such as MyBatis', are "
							+ "never cached.",
					"Remove it (safe-defaults sets 2048) or raise it to 2048 or more."),
			new Entry("jdbc.query-timeouts-off", Severity.WARNING,
					"enableQueryTimeouts=false is in effect (useConfigs=maxPerformance sets it): "
							+ "Statement.setQueryTimeout() and @Transactional(timeout) do nothing.",
					"Set enableQueryTimeouts=true (safe-defaults adds it next to maxPerformance)."),
			new Entry("jdbc.local-session-state", Severity.WARNING,
					"useLocalSessionState=true while the pool's connectionInitSql changes isolation, read-only, "
							+ "autocommit or the database: the driver never sees the change.",
					"Use the pool's own settings (transaction-isolation, read-only, auto-commit, catalog) instead "
							+ "of SQL, or set useLocalSessionState=false."),
			new Entry("jdbc.auto-reconnect", Severity.WARNING,
					"autoReconnect=true: Connector/J reconnects in the middle of a transaction and silently loses "
							+ "the work and session state before it.",
					"Remove autoReconnect=true; Hikari replaces broken connections."),
			new Entry("jdbc.multi-queries", Severity.WARNING,
					"allowMultiQueries=true: one SQL injection can append any statement.",
					"Remove allowMultiQueries=true; send statements one by one or batch them."),
			new Entry("jdbc.ignored-property", Severity.INFO,
					"A key in the pool's URL or data-source properties that its driver does not know and silently "
							+ "ignores (multiStatements on Connector/J, useConfigs on MariaDB Connector/J, a "
							+ "Connector/J key in the wrong case).",
					"Remove it or use the driver's own name for it."),
			new Entry("jdbc.infinite-connection-timeout", Severity.WARNING,
					"Hikari's connectionTimeout=0: a request waits for ever for a connection instead of failing "
							+ "fast.",
					"Set spring.datasource.hikari.connection-timeout to a few seconds (Hikari's default is 30s)."),
			new Entry("jdbc.prepared-stmt-budget", Severity.WARNING,
					"Pool size x statement cache x safe-defaults.jdbc.expected-instances exceeds half the server's "
							+ "max_prepared_stmt_count (Connector/J then silently stops using server prepares; "
							+ "MariaDB Connector/J may hang). Raised as INFO when the server could not be reached "
							+ "after startup.",
					"Lower safe-defaults.jdbc.prep-stmt-cache-size or the pool size, or raise "
							+ "max_prepared_stmt_count; set safe-defaults.jdbc.expected-instances.")));

	private FindingCatalogue() {
	}

	private static Map<String, Entry> index(List<Entry> entries) {
		Map<String, Entry> byId = new LinkedHashMap<>();
		for (Entry entry : entries) {
			if (byId.put(entry.id(), entry) != null) {
				throw new IllegalStateException("Duplicate finding id " + entry.id());
			}
		}
		return byId;
	}

	/**
	 * Returns every documented entry, in catalogue order.
	 * @return the entries
	 */
	public static List<Entry> entries() {
		return List.copyOf(ENTRIES.values());
	}

	/**
	 * Returns every documented id.
	 * @return the ids
	 */
	public static Set<String> ids() {
		return ENTRIES.keySet();
	}

	/**
	 * Looks up an id.
	 * @param id the id
	 * @return its entry, or empty when the id is unknown
	 */
	public static Optional<Entry> find(String id) {
		return Optional.ofNullable(ENTRIES.get(id));
	}

}
