package dev.safedefaults.jdbc.postgresql;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.PoolServerVariables;
import dev.safedefaults.jdbc.SessionIdleTimeout;

/**
 * PostgreSQL's part of {@link MaxLifetimeCheck} (issue 23): {@code idle_session_timeout}
 * as the pool's own session has it (URL {@code options}, role and database settings,
 * {@code connectionInitSql}), read on the one session per pool and per start
 * ({@link PostgreSqlSession}). {@code idle_in_transaction_session_timeout} is not
 * compared: it ends only a session left idle inside an open transaction, which a
 * connection resting in the pool never is (Hikari rolls back a dirty one when it
 * returns). Nor are the server's TCP keepalive settings ({@code tcp_keepalives_idle},
 * {@code _interval}, {@code _count}): their probes end a connection only when they go
 * unanswered, that is when the client is gone, never an idle pool connection that is
 * alive ({@code TcpKeepalivesOnPostgreSqlTests}), so they cannot change the advice.
 * Listed in {@code META-INF/spring.factories}.
 */
public final class PostgreSqlIdleSessionTimeout implements SessionIdleTimeout {

	private static final Findings FINDINGS = new Findings(PostgreSqlFindings.MAX_LIFETIME_ON_POSTGRESQL,
			PostgreSqlFindings.MAX_LIFETIME_ON_POSTGRESQL_BELOW_HIKARIS_MINIMUM,
			PostgreSqlFindings.MAX_LIFETIME_UNCHECKED_ON_POSTGRESQL);

	@Override
	public boolean reads(HikariDataSource pool) {
		return PostgreSqlSession.isPostgreSql(pool);
	}

	@Override
	public Duration read(HikariDataSource pool, PoolServerVariables serverVariables) throws Exception {
		return Duration.ofMillis(serverVariables.read(pool, PostgreSqlSession.QUERY).idleSessionTimeoutMillis());
	}

	@Override
	public Object shown(Duration timeout) {
		return MaxLifetimeCheck.describe(timeout);
	}

	@Override
	public Findings findings() {
		return FINDINGS;
	}

}
