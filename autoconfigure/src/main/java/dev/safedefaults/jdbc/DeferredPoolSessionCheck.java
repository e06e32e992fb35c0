package dev.safedefaults.jdbc;

import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import dev.safedefaults.support.HikariPools;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * A check that looks at each Hikari pool's own session, after startup and off the startup
 * path: it is named after its finding, runs deferred, and checks the pools one by one.
 * The session is read through the {@link PoolServerVariables} every such check shares,
 * which makes one attempt per pool and start and keeps its outcome for all of them.
 * <p>
 * What a check reads from the session, and when it raises its finding, is in the check's
 * own {@link #check}, with its driver's {@link PoolServerVariables.SessionQuery}. So is
 * what it does when the read fails: {@link MaxLifetimeCheck} and the MySQL-protocol
 * prepared-statement budget check report that failure, the others say nothing through
 * {@link #sessionOrNothing}.
 */
public abstract class DeferredPoolSessionCheck implements Check {

	private final ListableBeanFactory beanFactory;

	private final PoolServerVariables serverVariables;

	private final FindingType finding;

	/**
	 * Creates a check of every pool's session.
	 * @param beanFactory where the pools are
	 * @param serverVariables the sessions' readings, shared by every such check
	 * @param finding the finding it raises, whose id names the check
	 */
	protected DeferredPoolSessionCheck(ListableBeanFactory beanFactory, PoolServerVariables serverVariables,
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
		List<Finding> findings = new ArrayList<>();
		HikariPools.find(this.beanFactory).forEach((beanName, pool) -> {
			Finding finding = check(HikariPools.subject(beanName, pool), pool);
			if (finding != null) {
				findings.add(finding);
			}
		});
		return findings;
	}

	/**
	 * Checks one pool.
	 * @param subject how the finding names the pool
	 * @param pool the pool
	 * @return the pool's finding, or {@code null} when all is well
	 */
	protected abstract @Nullable Finding check(String subject, HikariDataSource pool);

	/**
	 * The readings of the pools' sessions, shared by every deferred pool check.
	 * @return the readings
	 */
	protected final PoolServerVariables serverVariables() {
		return this.serverVariables;
	}

	/**
	 * A pool's session, for a check that says nothing when it cannot be read:
	 * {@code jdbc.max-lifetime-unchecked} or {@code jdbc.login-refused}, raised by
	 * {@link MaxLifetimeCheck} from the same one attempt, already report that failure for
	 * the pool (one cause, one finding).
	 * @param <T> what the reading is
	 * @param pool the pool, one of the query's driver
	 * @param query the driver's query
	 * @return the session's reading, or {@code null} when reading it failed
	 */
	protected final <T> @Nullable T sessionOrNothing(HikariDataSource pool, PoolServerVariables.SessionQuery<T> query) {
		try {
			return this.serverVariables.read(pool, query);
		}
		catch (Exception ex) {
			// Reported by the jdbc.max-lifetime check, which reads the same session.
			return null;
		}
	}

}
