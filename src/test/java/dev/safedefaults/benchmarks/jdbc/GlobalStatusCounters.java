package dev.safedefaults.benchmarks.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The server-wide statement counters the JDBC benchmark compares (the benchmark's server
 * is its own, so they count only its statements).
 */
final class GlobalStatusCounters {

	static final List<String> COUNTERS = List.of("Questions", "Com_select", "Com_update", "Com_stmt_prepare",
			"Com_stmt_execute");

	private GlobalStatusCounters() {
	}

	/**
	 * The server-wide counters.
	 * @param observer a connection used for nothing else
	 * @return name to value
	 * @throws SQLException if the server refuses
	 */
	static Map<String, Long> read(Connection observer) throws SQLException {
		return read(observer, COUNTERS);
	}

	/**
	 * Some server-wide counters, each present (0 when the server does not report it).
	 * @param observer a connection used for nothing else
	 * @param counters the counters' names
	 * @return name to value, in the order asked
	 * @throws SQLException if the server refuses
	 */
	static Map<String, Long> read(Connection observer, List<String> counters) throws SQLException {
		String names = counters.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(","));
		Map<String, Long> values = new LinkedHashMap<>();
		try (Statement statement = observer.createStatement();
				ResultSet result = statement
					.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN (" + names + ")")) {
			while (result.next()) {
				values.put(result.getString(1), result.getLong(2));
			}
		}
		Map<String, Long> ordered = new LinkedHashMap<>();
		counters.forEach((name) -> ordered.put(name, values.getOrDefault(name, 0L)));
		return ordered;
	}

}
