package dev.safedefaults.jdbc.mysql;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Finds SQL that changes the session state a MySQL-protocol driver tracks locally when
 * {@code useLocalSessionState=true} (part of Connector/J's {@code maxPerformance}): the
 * transaction isolation, read-only mode, autocommit and the current database. With local
 * session state, a driver never sees such a change made by SQL and goes on with the state
 * it remembers.
 */
final class SessionStateSql {

	private static final Pattern CHANGES_SESSION_STATE = Pattern.compile("(?is)(?:^|;)\\s*("
			+ "SET\\s+(?:SESSION\\s+|LOCAL\\s+)?(?:@@(?:SESSION\\.|LOCAL\\.)?)?"
			+ "(?:TRANSACTION|TRANSACTION_ISOLATION|TX_ISOLATION|TRANSACTION_READ_ONLY|TX_READ_ONLY|AUTOCOMMIT)\\b[^;]*"
			+ "|USE\\s+[^;]+)");

	private SessionStateSql() {
	}

	/**
	 * Finds the first statement that changes tracked session state.
	 * @param sql one or more statements separated by {@code ;}, may be {@code null}
	 * @return the statement, trimmed, or empty when there is none
	 */
	static Optional<String> findChange(@Nullable String sql) {
		if (sql == null || sql.isBlank()) {
			return Optional.empty();
		}
		Matcher matcher = CHANGES_SESSION_STATE.matcher(sql.trim());
		return matcher.find() ? Optional.of(matcher.group(1).trim()) : Optional.empty();
	}

}
