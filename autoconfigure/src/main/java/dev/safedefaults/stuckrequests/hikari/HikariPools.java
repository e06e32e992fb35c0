package dev.safedefaults.stuckrequests.hikari;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.safedefaults.stuckrequests.JdbcPools;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The application's Hikari pools, read through Hikari's public pool bean when a request
 * waits on one: which has threads waiting for a connection, and how many are in use.
 */
final class HikariPools implements JdbcPools {

	private final ObjectProvider<DataSource> dataSources;

	HikariPools(ObjectProvider<DataSource> dataSources) {
		this.dataSources = dataSources;
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
		forEachPool((hikari, pool) -> {
			// Each figure read once, so that the text and the count agree.
			int active = pool.getActiveConnections();
			int waiting = pool.getThreadsAwaitingConnection();
			if (active > 0 || waiting > 0) {
				states.add(hikari.getPoolName() + ": " + active + " of " + hikari.getMaximumPoolSize()
						+ " connections in use, " + waiting + ((waiting == 1) ? " thread" : " threads")
						+ " waiting for one");
			}
			if (waiting > 0) {
				inUseWhereWaitedOn[0] += active;
			}
		});
		return new PoolState(String.join("; ", states), inUseWhereWaitedOn[0]);
	}

	private List<String> names(Predicate<HikariPoolMXBean> which) {
		List<String> names = new ArrayList<>();
		forEachPool((hikari, pool) -> {
			if (which.test(pool)) {
				names.add(hikari.getPoolName());
			}
		});
		return names;
	}

	/** Every started Hikari pool among the application's data sources, unwrapped. */
	private void forEachPool(BiConsumer<HikariDataSource, HikariPoolMXBean> action) {
		this.dataSources.orderedStream().forEach((dataSource) -> {
			HikariDataSource hikari = hikari(dataSource);
			HikariPoolMXBean pool = (hikari != null) ? hikari.getHikariPoolMXBean() : null;
			if (hikari != null && pool != null) {
				action.accept(hikari, pool);
			}
		});
	}

	private static @Nullable HikariDataSource hikari(DataSource dataSource) {
		try {
			return dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class) : null;
		}
		catch (SQLException ex) {
			return null;
		}
	}

}
