package dev.safedefaults.jdbc.mysql;

import java.util.OptionalInt;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;
import dev.safedefaults.jdbc.DeferredPoolSessionCheck;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.JdbcFindings;
import dev.safedefaults.jdbc.PoolServerVariables;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.CACHE_PREP_STMTS;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.PREP_STMT_CACHE_SIZE;
import static dev.safedefaults.jdbc.mysql.MySqlProtocolDriver.USE_SERVER_PREP_STMTS;

/**
 * Compares what the pools may keep prepared on the server (pool size x statement cache x
 * expected instances) with half of the server's {@code @@max_prepared_stmt_count}: when
 * it is exhausted Connector/J silently falls back to client-side statements and MariaDB
 * Connector/J was seen to hang in a socket read. Deferred: it reads the variable once,
 * after startup, logged in as the pool logs in ({@link PoolServerVariables}); a server it
 * cannot reach is reported as {@code jdbc.prepared-stmt-budget-unchecked} (INFO), a
 * refused login as {@code jdbc.login-refused}.
 */
final class PreparedStatementBudgetCheck extends DeferredPoolSessionCheck {

	/** Connect, socket and query timeout of the one query, in seconds. */
	static final int TIMEOUT_SECONDS = PoolServerVariables.TIMEOUT_SECONDS;

	/**
	 * Reads {@code @@max_prepared_stmt_count} from the server of a pool.
	 */
	@FunctionalInterface
	interface ServerVariableReader {

		long maxPreparedStatementCount(HikariDataSource pool) throws Exception;

	}

	private final JdbcDefaultsProperties properties;

	private final ServerVariableReader reader;

	PreparedStatementBudgetCheck(ListableBeanFactory beanFactory, JdbcDefaultsProperties properties,
			PoolServerVariables serverVariables) {
		this(beanFactory, properties,
				(pool) -> serverVariables.read(pool, MySqlServerVariables.QUERY).maxPreparedStmtCount(),
				serverVariables);
	}

	PreparedStatementBudgetCheck(ListableBeanFactory beanFactory, JdbcDefaultsProperties properties,
			ServerVariableReader reader) {
		this(beanFactory, properties, reader, new PoolServerVariables());
	}

	private PreparedStatementBudgetCheck(ListableBeanFactory beanFactory, JdbcDefaultsProperties properties,
			ServerVariableReader reader, PoolServerVariables serverVariables) {
		super(beanFactory, serverVariables, MySqlProtocolFindings.PREPARED_STMT_BUDGET);
		this.properties = properties;
		this.reader = reader;
	}

	@Override
	protected @Nullable Finding check(String subject, HikariDataSource pool) {
		PoolDriverSettings settings = PoolDriverSettings.of(pool);
		if (settings == null || !settings.effectiveBoolean(USE_SERVER_PREP_STMTS).orElse(false)
				|| !settings.effectiveBoolean(CACHE_PREP_STMTS).orElse(false)) {
			// Without server prepares kept in a cache, statements do not stay open on the
			// server.
			return null;
		}
		OptionalInt cacheSize = settings.effectiveInt(PREP_STMT_CACHE_SIZE);
		if (cacheSize.isEmpty() || cacheSize.getAsInt() <= 0) {
			return null;
		}
		long budget = (long) pool.getMaximumPoolSize() * cacheSize.getAsInt() * this.properties.getExpectedInstances();
		String formula = pool.getMaximumPoolSize() + " connections x prepStmtCacheSize " + cacheSize.getAsInt() + " x "
				+ this.properties.getExpectedInstances() + " instance(s) = " + budget;
		long serverMax;
		try {
			serverMax = this.reader.maxPreparedStatementCount(pool);
		}
		catch (Exception ex) {
			if (PoolServerVariables.isLoginRefused(ex)) {
				return serverVariables().reportsRefusal(pool) ? JdbcFindings.LOGIN_REFUSED.raise(subject,
						settings.maskedUrl(), PoolServerVariables.describe(ex)) : null;
			}
			return MySqlProtocolFindings.PREPARED_STMT_BUDGET_UNCHECKED.raise(subject, settings.maskedUrl(),
					TIMEOUT_SECONDS, PoolServerVariables.describe(ex), formula);
		}
		if (serverMax < 0 || budget * 2 <= serverMax) {
			// Negative: no limit (TiDB's default is -1).
			return null;
		}
		return MySqlProtocolFindings.PREPARED_STMT_BUDGET.raise(subject, formula, serverMax);
	}

}
