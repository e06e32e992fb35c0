package dev.safedefaults.jdbc;

import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.support.HikariPools;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Looks at the settings of every Hikari pool: Hikari's own (an infinite connection
 * timeout), then its driver's, as the driver reads them, through each driver's
 * {@link DriverSettingsCheck} (the MySQL-protocol drivers' traps of incident 5 and their
 * neighbours, issue 34's missing socket timeout). It reads configuration only: no I/O.
 */
public final class PoolSettingsCheck implements Check {

	private final ListableBeanFactory beanFactory;

	private final List<DriverSettingsCheck> drivers;

	PoolSettingsCheck(ListableBeanFactory beanFactory) {
		this(beanFactory, DriverSettingsCheck.listed());
	}

	PoolSettingsCheck(ListableBeanFactory beanFactory, List<DriverSettingsCheck> drivers) {
		this.beanFactory = beanFactory;
		this.drivers = List.copyOf(drivers);
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		HikariPools.find(this.beanFactory)
			.forEach((beanName, pool) -> findings.addAll(check(HikariPools.subject(beanName, pool), pool)));
		return findings;
	}

	@Override
	public String name() {
		return "jdbc.pool-settings";
	}

	/**
	 * Checks one pool.
	 * @param subject how findings name the pool
	 * @param pool the pool
	 * @return its findings
	 */
	List<Finding> check(String subject, HikariDataSource pool) {
		List<Finding> findings = new ArrayList<>();
		if (pool.getConnectionTimeout() >= Integer.MAX_VALUE) {
			// Hikari stores connectionTimeout=0 as Integer.MAX_VALUE ms: wait for ever.
			findings.add(JdbcFindings.INFINITE_CONNECTION_TIMEOUT.raise(subject));
		}
		for (DriverSettingsCheck driver : this.drivers) {
			findings.addAll(driver.check(subject, pool));
		}
		return findings;
	}

}
