package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The server's statement counters ({@code Questions}, {@code Com_*}) around a piece of
 * work, with the cost of reading them subtracted: two snapshots back to back measure what
 * one snapshot adds, and that is taken off the work's delta.
 */
final class StatementCounters {

	static final String QUESTIONS = "Questions";

	static final String COM_SELECT = "Com_select";

	static final String COM_UPDATE = "Com_update";

	static final String COM_STMT_PREPARE = "Com_stmt_prepare";

	static final String COM_STMT_EXECUTE = "Com_stmt_execute";

	static final String COM_STMT_CLOSE = "Com_stmt_close";

	/** {@code SET} statements, {@code SET autocommit=…} among them. */
	static final String COM_SET_OPTION = "Com_set_option";

	static final String COM_COMMIT = "Com_commit";

	static final String COM_ROLLBACK = "Com_rollback";

	private static final List<String> NAMES = List.of(QUESTIONS, COM_SELECT, COM_UPDATE, COM_STMT_PREPARE,
			COM_STMT_EXECUTE, COM_STMT_CLOSE, COM_SET_OPTION, COM_COMMIT, COM_ROLLBACK);

	/** Work that talks to the database. */
	@FunctionalInterface
	interface Work {

		void run() throws Exception;

	}

	/**
	 * Counter values or deltas.
	 *
	 * @param values name to value
	 */
	record Counts(Map<String, Long> values) {

		long get(String name) {
			return this.values.getOrDefault(name, 0L);
		}

		Counts minus(Counts other) {
			Map<String, Long> delta = new LinkedHashMap<>();
			this.values.forEach((name, value) -> delta.put(name, value - other.get(name)));
			return new Counts(delta);
		}

		@Override
		public String toString() {
			return this.values.entrySet()
				.stream()
				.map((entry) -> entry.getKey() + "=" + entry.getValue())
				.collect(Collectors.joining(", "));
		}

	}

	private StatementCounters() {
	}

	/**
	 * Measures the server-wide counters around the work. Only valid on a server nothing
	 * else talks to.
	 * @param observer a connection outside the pool under test, used only for the
	 * snapshots
	 * @param work the work
	 * @return what the work added
	 * @throws Exception when the work or a snapshot fails
	 */
	static Counts measureGlobal(Connection observer, Work work) throws Exception {
		Counts first = snapshot(observer, "GLOBAL");
		Counts second = snapshot(observer, "GLOBAL");
		Counts snapshotCost = second.minus(first);
		work.run();
		Counts after = snapshot(observer, "GLOBAL");
		return after.minus(second).minus(snapshotCost);
	}

	/**
	 * Measures one session's counters around the work: for a shared server, with a pool
	 * of exactly one connection, snapshots taken through that connection.
	 * @param sessionSource gives the pool's one connection for each snapshot
	 * @param work the work
	 * @return what the work added
	 * @throws Exception when the work or a snapshot fails
	 */
	static Counts measureSession(ConnectionSource sessionSource, Work work) throws Exception {
		Counts first = sessionSnapshot(sessionSource);
		Counts second = sessionSnapshot(sessionSource);
		Counts snapshotCost = second.minus(first);
		work.run();
		Counts after = sessionSnapshot(sessionSource);
		return after.minus(second).minus(snapshotCost);
	}

	/** Gives a connection. */
	@FunctionalInterface
	interface ConnectionSource {

		Connection get() throws SQLException;

	}

	private static Counts sessionSnapshot(ConnectionSource source) throws SQLException {
		try (Connection connection = source.get()) {
			return snapshot(connection, "SESSION");
		}
	}

	private static Counts snapshot(Connection connection, String scope) throws SQLException {
		String names = NAMES.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(","));
		Map<String, Long> values = new LinkedHashMap<>();
		try (Statement statement = connection.createStatement();
				ResultSet result = statement
					.executeQuery("SHOW " + scope + " STATUS WHERE Variable_name IN (" + names + ")")) {
			while (result.next()) {
				values.put(result.getString(1), result.getLong(2));
			}
		}
		Map<String, Long> ordered = new LinkedHashMap<>();
		NAMES.forEach((name) -> ordered.put(name, values.getOrDefault(name, 0L)));
		return new Counts(ordered);
	}

}
