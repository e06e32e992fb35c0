package dev.safedefaults.jdbc.postgresql;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.SecretMasker;
import dev.safedefaults.jdbc.DeferredPoolSessionCheck;
import dev.safedefaults.jdbc.PoolServerVariables;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Issue 23: a PostgreSQL pool that reaches its server through a connection pooler
 * (PgBouncer and the poolers built like it, told apart from a plain TCP proxy by the
 * process id the login announced, see {@link PostgreSqlRoute}) while pgjdbc prepares
 * statements on the server ({@code prepareThreshold} not 0, its default 5). In
 * transaction or statement pooling mode those statements fail intermittently with
 * SQLState 26000 or 42P05, or meet another client's statement of the same name. Reports
 * {@code jdbc.prepared-statements-behind-pooler} (WARNING) and applies no default: a
 * pooler in session mode, or PgBouncer 1.21+ with {@code max_prepared_statements}, keeps
 * server-side prepares working, and the client cannot see which mode it is in.
 * <p>
 * Deferred: it reads the pool's own session once, after startup, on the one session per
 * pool that {@link PoolServerVariables} makes. When that read fails it says nothing:
 * {@code jdbc.max-lifetime-unchecked} or {@code jdbc.login-refused} already report that
 * failure for the pool (one cause, one finding).
 */
final class PreparedStatementsBehindPoolerCheck extends DeferredPoolSessionCheck {

	PreparedStatementsBehindPoolerCheck(ListableBeanFactory beanFactory, PoolServerVariables serverVariables) {
		super(beanFactory, serverVariables, PostgreSqlFindings.PREPARED_STATEMENTS_BEHIND_POOLER);
	}

	@Override
	protected @Nullable Finding check(String subject, HikariDataSource pool) {
		if (!PostgreSqlSession.isPostgreSql(pool)) {
			return null;
		}
		PostgreSqlSession session = sessionOrNothing(pool, PostgreSqlSession.QUERY);
		PostgreSqlRoute route = (session != null) ? session.route() : null;
		if (route == null || !route.throughPooler() || !route.preparesOnTheServer()) {
			return null;
		}
		String url = String.valueOf(pool.getJdbcUrl());
		return PostgreSqlFindings.PREPARED_STATEMENTS_BEHIND_POOLER.raise(subject, SecretMasker.maskUrl(url),
				route.dialled(), route.server(), route.driverBackendPid(), route.serverBackendPid(),
				fromWhichExecution(route), url.contains("?") ? "&" : "?");
	}

	private static String fromWhichExecution(PostgreSqlRoute route) {
		if (route.prepareThreshold() < 0) {
			return "on every execution (prepareThreshold=" + route.prepareThreshold() + ")";
		}
		return "from its execution number " + route.prepareThreshold() + " on (prepareThreshold="
				+ route.prepareThreshold() + ")";
	}

}
