package dev.safedefaults.jdbc;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * A check that looks at each Hikari pool's own session, after startup and off the startup
 * path: it is named after its finding, runs deferred, and checks the pools one by one.
 * The session is read through the {@link PoolServerVariables} every such check shares,
 * which makes one attempt per pool and start and keeps its outcome for all of them.
 * <p>
 * What a check reads from the session, and when it raises its finding, is in the check's
 * own {@link #check}. So is what it does when the read fails: {@link MaxLifetimeCheck}
 * and {@link PreparedStatementBudgetCheck} report that failure, the others say nothing
 * through {@link #postgreSqlSessionOrNothing}.
 */
abstract class DeferredPoolSessionCheck implements Check {

	private final ListableBeanFactory beanFactory;

	private final PoolServerVariables serverVariables;

	private final FindingType finding;

	/**
	 * Creates a check of every pool's session.
	 * @param beanFactory where the pools are
	 * @param serverVariables the sessions' readings, shared by every such check
	 * @param finding the finding it raises, whose id names the check
	 */
	DeferredPoolSessionCheck(ListableBeanFactory beanFactory, PoolServerVariables serverVariables,
			FindingType finding) {
		this.beanFactory = beanFactory;
		this.serverVariables = serverVariables;
		this.finding = finding;
	}

	@Override
	public final boolean deferred() {
		return true;
	}

	@Override
	public final String name() {
		return this.finding.id();
	}

	@Override
	public final List<Finding> run() {
		return HikariPools.checkEach(this.beanFactory, this::check);
	}

	/**
	 * Checks one pool.
	 * @param subject how the finding names the pool
	 * @param pool the pool
	 * @return the pool's finding, or {@code null} when all is well
	 */
	abstract @Nullable Finding check(String subject, HikariDataSource pool);

	/**
	 * The readings of the pools' sessions, shared by every deferred pool check.
	 * @return the readings
	 */
	final PoolServerVariables serverVariables() {
		return this.serverVariables;
	}

	/**
	 * A PostgreSQL pool's session, for a check that says nothing when it cannot be read:
	 * {@code jdbc.max-lifetime-unchecked} or {@code jdbc.login-refused}, raised by
	 * {@link MaxLifetimeCheck} from the same one attempt, already report that failure for
	 * the pool (one cause, one finding).
	 * @param pool the pool, one that {@link PostgreSqlSession#isPostgreSql} recognises
	 * @return the session, or {@code null} when reading it failed
	 */
	final @Nullable PostgreSqlSession postgreSqlSessionOrNothing(HikariDataSource pool) {
		try {
			return this.serverVariables.readPostgreSql(pool);
		}
		catch (Exception ex) {
			// Reported by the jdbc.max-lifetime check, which reads the same session.
			return null;
		}
	}

}
