package dev.safedefaults.jdbc.mysql;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.MaxLifetimeCheck;
import dev.safedefaults.jdbc.PoolServerVariables;
import dev.safedefaults.jdbc.SessionIdleTimeout;

/**
 * The MySQL protocol's part of {@link MaxLifetimeCheck}: {@code @@session.wait_timeout}
 * as the pool's own sessions see it ({@code sessionVariables} and
 * {@code connectionInitSql} included), read with {@code max_prepared_stmt_count} on the
 * one session per pool and per start ({@link MySqlServerVariables}). Listed in
 * {@code META-INF/spring.factories}.
 */
public final class MySqlWaitTimeout implements SessionIdleTimeout {

	/** The check's own declarations: the MySQL protocol's words are the check's. */
	private static final Findings FINDINGS = new Findings(JdbcFindings.MAX_LIFETIME,
			JdbcFindings.MAX_LIFETIME_BELOW_HIKARIS_MINIMUM, JdbcFindings.MAX_LIFETIME_UNCHECKED);

	@Override
	public boolean reads(HikariDataSource pool) {
		// wait_timeout is the MySQL protocol's.
		return PoolDriverSettings.of(pool) != null;
	}

	@Override
	public Duration read(HikariDataSource pool, PoolServerVariables serverVariables) throws Exception {
		return Duration.ofSeconds(serverVariables.read(pool, MySqlServerVariables.QUERY).waitTimeoutSeconds());
	}

	@Override
	public Object shown(Duration timeout) {
		return timeout.toSeconds();
	}

	@Override
	public Findings findings() {
		return FINDINGS;
	}

}
