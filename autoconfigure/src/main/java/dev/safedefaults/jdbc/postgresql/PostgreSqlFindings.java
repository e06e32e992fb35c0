package dev.safedefaults.jdbc.postgresql;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;
import dev.safedefaults.jdbc.JdbcFindings;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * The findings of the JDBC feature that only a PostgreSQL pool can raise (issue 23):
 * pgjdbc's server-side prepared statements behind a connection pooler, and Hibernate
 * batches that pgjdbc does not rewrite; and PostgreSQL's variants of the shared
 * {@code jdbc.max-lifetime} and {@code jdbc.max-lifetime-unchecked}
 * ({@code idle_session_timeout}). Declared once; the findings every driver shares are in
 * {@link JdbcFindings}.
 */
public final class PostgreSqlFindings implements FindingDeclarations {

	/**
	 * Issue 23: a PostgreSQL pool behind a connection pooler with pgjdbc's server-side
	 * prepares on. Args: URL, the address dialled, the server's address, the process id
	 * pgjdbc was given, the session's, from which execution on it prepares (with
	 * prepareThreshold), "?" or "&amp;". INFO, not WARNING: a client sees neither the
	 * pooling mode nor PgBouncer's max_prepared_statements, so the trap is likely but not
	 * certain; jdbc.prepared-statement-errors is the WARNING once it happens.
	 */
	static final FindingType PREPARED_STATEMENTS_BEHIND_POOLER = FindingType.declare(
			"jdbc.prepared-statements-behind-pooler", INFO,
			"A PostgreSQL pool reaches its server through a connection pooler (the session's pg_backend_pid() is "
					+ "not the process id pgjdbc was given at login: PgBouncer and the poolers built like it answer "
					+ "the login themselves) while pgjdbc prepares statements on the server (prepareThreshold, 5 by "
					+ "default). In transaction or statement pooling mode a statement from its fifth execution on "
					+ "runs on a server session that never prepared it, or that holds another client's statement of "
					+ "the same name: intermittent 'prepared statement \"S_1\" does not exist' (SQLState 26000) or "
					+ "'already exists' (42P05). Checked once after startup, off the startup path.",
			"The pool on %1$s reaches PostgreSQL through a connection pooler: it dialled %2$s, the server answers on "
					+ "%3$s, and the session's process id (%5$s) is not the one pgjdbc was given at login (%4$s). "
					+ "pgjdbc prepares a statement on the server %6$s, under a name its connection chose (S_1, S_2, "
					+ "...): with the pooler in transaction or statement mode the next transaction may run on another "
					+ "server session, where that name does not exist or is another client's statement. Reproduced "
					+ "through PgBouncer 1.18 in transaction mode: 'ERROR: prepared statement \"S_1\" already "
					+ "exists' (42P05) on a second client's fifth execution, and 'does not exist' (26000) inside a "
					+ "transaction once the server session changed (pgjdbc retries a 26000 by itself only outside a "
					+ "transaction).",
			"Add prepareThreshold=0 to the URL (%7$sprepareThreshold=0) or set "
					+ "spring.datasource.hikari.data-source-properties.prepareThreshold=0: pgjdbc then never names a "
					+ "statement on the server, and the server parses each statement on every execution. On "
					+ "PgBouncer 1.21 or later you may keep server-side prepares instead with max_prepared_statements "
					+ "above 0 in pgbouncer.ini (200 by default since 1.24, 0 in 1.21 to 1.23), which makes PgBouncer "
					+ "prepare them again on each server session it hands out. A client cannot see the pooling mode "
					+ "nor that setting: if the pooler runs in session mode, or tracks prepared statements, nothing "
					+ "breaks, and safe-defaults.checks.disabled=jdbc.prepared-statements-behind-pooler switches the "
					+ "check off.");

	/**
	 * Issue 23 at run time: statements of a PostgreSQL pool that failed with SQLState
	 * 26000 or 42P05. Args: URL, count of 26000, count of 42P05, "?" or "&amp;".
	 */
	static final FindingType PREPARED_STATEMENT_ERRORS = FindingType.declare("jdbc.prepared-statement-errors", WARNING,
			"While the service runs, statements of a PostgreSQL pool failed because a server-side prepared "
					+ "statement was missing on the server session (SQLState 26000) or already there (42P05): "
					+ "pgjdbc's prepared statements behind a pooler in transaction mode. Counted per pool since "
					+ "startup (HikariCP 7).",
			"On %1$s, %2$s statements failed with 'prepared statement ... does not exist' (SQLState 26000) and %3$s "
					+ "with 'prepared statement ... already exists' (42P05) since startup: pgjdbc prepared them on a "
					+ "server session that a connection pooler in transaction mode no longer hands to this "
					+ "connection, or that another client's statement of the same name is on "
					+ "(jdbc.prepared-statements-behind-pooler says why).",
			"Add prepareThreshold=0 to the URL (%4$sprepareThreshold=0) or set "
					+ "spring.datasource.hikari.data-source-properties.prepareThreshold=0; or, on PgBouncer 1.21 or "
					+ "later, set max_prepared_statements above 0.");

	/**
	 * Issue 23: Hibernate batching on a PostgreSQL pool that does not rewrite batched
	 * inserts. Args: batch size, URL, "?" or "&amp;".
	 */
	static final FindingType BATCH_INSERTS_NOT_REWRITTEN = FindingType.declare("jdbc.batch-inserts-not-rewritten", INFO,
			"Hibernate batches inserts (hibernate.jdbc.batch_size) on a PostgreSQL pool without pgjdbc's "
					+ "reWriteBatchedInserts=true: a batch of N inserts runs as N statements on the server instead "
					+ "of multi-row inserts. No default is applied.",
			"Hibernate batches up to %1$s statements (hibernate.jdbc.batch_size) on %2$s, but pgjdbc's "
					+ "reWriteBatchedInserts is off: each batch of N inserts is executed as N single-row INSERTs on "
					+ "the server instead of a few multi-row ones (measured on PostgreSQL 15: 1000 entities in "
					+ "batches of 50 ran 1000 INSERTs without it, 60 with it; on a loopback connection the time "
					+ "gained was within the noise, 0.6-1.3x, BENCHMARKS.md).",
			"Add reWriteBatchedInserts=true to the URL (%3$sreWriteBatchedInserts=true) or to "
					+ "spring.datasource.hikari.data-source-properties. Hibernate keeps its results with it; but every "
					+ "row of a rewritten insert then reports SUCCESS_NO_INFO (-2) instead of its count: code that "
					+ "sums or reads JdbcTemplate.batchUpdate's counts changes result, and on INSERT ... ON CONFLICT "
					+ "DO NOTHING no one can tell which rows were skipped (Spring Batch's JdbcBatchItemWriter "
					+ "assertUpdates then misses them). Check such code before switching it on.");

	/**
	 * Issue 23: a PostgreSQL pool's sessions closed by {@code idle_session_timeout}.
	 * Args: the timeout (as "60s"), URL, maxLifetime, keepaliveTime, an idleTimeout note
	 * or "", the maxLifetime to set, the keepaliveTime to set.
	 */
	static final FindingType MAX_LIFETIME_ON_POSTGRESQL = JdbcFindings.MAX_LIFETIME.because(
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
	static final FindingType MAX_LIFETIME_ON_POSTGRESQL_BELOW_HIKARIS_MINIMUM = JdbcFindings.MAX_LIFETIME.because(
			MAX_LIFETIME_ON_POSTGRESQL.message(),
			"Hikari cannot retire or ping a connection sooner than 30 s, 30 s before an idle_session_timeout of "
					+ "%1$s: raise the sessions' timeout (options=-c idle_session_timeout=600000 in the URL, "
					+ "ALTER ROLE … SET idle_session_timeout, or the server's), or set it to 0 for this pool's "
					+ "role.");

	/** Issue 23. Args as {@link JdbcFindings#MAX_LIFETIME_UNCHECKED}. */
	static final FindingType MAX_LIFETIME_UNCHECKED_ON_POSTGRESQL = JdbcFindings.MAX_LIFETIME_UNCHECKED.because(
			"Could not read the sessions' idle_session_timeout from %1$s within %2$ss (%3$s), so maxLifetime (%4$s) "
					+ "and keepaliveTime (%5$s) were not compared with it; nor were the socket and statement "
					+ "timeouts read (jdbc.no-timeouts).",
			JdbcFindings.MAX_LIFETIME_UNCHECKED.fix());

	@Override
	public List<FindingType> findingTypes() {
		return List.of(PREPARED_STATEMENTS_BEHIND_POOLER, PREPARED_STATEMENT_ERRORS, BATCH_INSERTS_NOT_REWRITTEN);
	}

}
