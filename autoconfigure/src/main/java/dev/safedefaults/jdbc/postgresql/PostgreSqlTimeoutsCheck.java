package dev.safedefaults.jdbc.postgresql;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.SecretMasker;
import dev.safedefaults.jdbc.DeferredPoolSessionCheck;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.PoolServerVariables;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Issue 23: a PostgreSQL pool on which nothing bounds how long a query waits, neither
 * pgjdbc's {@code socketTimeout} (0, its default, is none) nor a
 * {@code statement_timeout} on the pool's sessions. Reports {@code jdbc.no-timeouts}
 * (INFO) and applies no default: the right timeout is above the application's slowest
 * query, which only it knows.
 * <p>
 * Deferred: it reads the pool's own session once, after startup, on the one session per
 * pool that {@link PoolServerVariables} makes. When that read fails it says nothing:
 * {@code jdbc.max-lifetime-unchecked} or {@code jdbc.login-refused} already report that
 * failure for the pool (one cause, one finding).
 */
final class PostgreSqlTimeoutsCheck extends DeferredPoolSessionCheck {

	PostgreSqlTimeoutsCheck(ListableBeanFactory beanFactory, PoolServerVariables serverVariables) {
		super(beanFactory, serverVariables, JdbcFindings.NO_TIMEOUTS);
	}

	@Override
	protected @Nullable Finding check(String subject, HikariDataSource pool) {
		if (!PostgreSqlSession.isPostgreSql(pool)) {
			return null;
		}
		PostgreSqlSession session = sessionOrNothing(pool, PostgreSqlSession.QUERY);
		if (session == null || session.socketTimeoutMillis() > 0 || session.statementTimeoutMillis() > 0) {
			return null;
		}
		String url = String.valueOf(pool.getJdbcUrl());
		return JdbcFindings.NO_TIMEOUTS.raise(subject, SecretMasker.maskUrl(url), url.contains("?") ? "&" : "?");
	}

}
