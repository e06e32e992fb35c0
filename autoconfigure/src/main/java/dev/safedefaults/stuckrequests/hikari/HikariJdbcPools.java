package dev.safedefaults.stuckrequests.hikari;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.safedefaults.stuckrequests.JdbcPools;
import dev.safedefaults.support.HikariPools;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * The application's Hikari pools, read through Hikari's public pool bean when a request
 * waits on one: which has threads waiting for a connection, and how many are in use.
 */
final class HikariJdbcPools implements JdbcPools {

	private final ListableBeanFactory beanFactory;

	HikariJdbcPools(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public String waitedOn() {
		List<String> waited = names((pool) -> pool.getThreadsAwaitingConnection() > 0);
		return waited.isEmpty() ? JdbcPools.UNKNOWN.waitedOn() : String.join(", ", waited);
	}

	@Override
	public String inUse() {
		List<String> all = names((pool) -> true);
		if (all.size() == 1) {
			return all.get(0);
		}
		List<String> active = names((pool) -> pool.getActiveConnections() > 0);
		return active.isEmpty() ? JdbcPools.UNKNOWN.inUse() : "one of " + String.join(", ", active);
	}

	@Override
	public PoolState state() {
		List<String> states = new ArrayList<>();
		int[] inUseWhereWaitedOn = { 0 };
		forEachPool((name, hikari, pool) -> {
			// Each figure read once, so that the text and the count agree.
			int active = pool.getActiveConnections();
			int waiting = pool.getThreadsAwaitingConnection();
			if (active > 0 || waiting > 0) {
				states.add(name + ": " + active + " of " + hikari.getMaximumPoolSize() + " connections in use, "
						+ waiting + ((waiting == 1) ? " thread" : " threads") + " waiting for one");
			}
			if (waiting > 0) {
				inUseWhereWaitedOn[0] += active;
			}
		});
		return new PoolState(String.join("; ", states), inUseWhereWaitedOn[0]);
	}

	private List<String> names(Predicate<HikariPoolMXBean> which) {
		List<String> names = new ArrayList<>();
		forEachPool((name, hikari, pool) -> {
			if (which.test(pool)) {
				names.add(name);
			}
		});
		return names;
	}

	/**
	 * Every started Hikari pool among the application's data sources, unwrapped and named
	 * as the JDBC feature's findings name it.
	 */
	private void forEachPool(PoolAction action) {
		HikariPools.find(this.beanFactory).forEach((beanName, hikari) -> {
			HikariPoolMXBean pool = hikari.getHikariPoolMXBean();
			if (pool != null) {
				action.accept(HikariPools.subject(beanName, hikari), hikari, pool);
			}
		});
	}

	private interface PoolAction {

		void accept(String name, HikariDataSource hikari, HikariPoolMXBean pool);

	}

}
