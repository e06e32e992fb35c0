package dev.safedefaults.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.support.HikariPools;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Says, per Hikari pool, which settings the JDBC feature added and which keys it left to
 * the user, or why it left a pool alone (each driver's
 * {@link HikariDefaultsPostProcessor} and, with the defaults off, its
 * {@link DriverDefaults}). URLs are masked.
 */
public final class JdbcFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "jdbc";

	private final JdbcDefaultsProperties properties;

	private final ObjectProvider<HikariDefaultsPostProcessor> postProcessor;

	private final ListableBeanFactory beanFactory;

	private final List<DriverDefaults> drivers = DriverDefaults.listed();

	JdbcFeatureStatus(JdbcDefaultsProperties properties, ObjectProvider<HikariDefaultsPostProcessor> postProcessor,
			ListableBeanFactory beanFactory) {
		this.properties = properties;
		this.postProcessor = postProcessor;
		this.beanFactory = beanFactory;
	}

	@Override
	public FeatureStatus status() {
		HikariDefaultsPostProcessor applier = this.postProcessor.getIfAvailable();
		if (!this.properties.isEnabled() || applier == null) {
			return FeatureStatus
				.off(FEATURE,
						"safe-defaults.jdbc.enabled=false: pools are left as configured; the JDBC checks still run")
				.withScope(checksOnlyScope());
		}
		List<PoolDefaultsReport> pools = applier.pools();
		List<String> appliedTo = pools.stream()
			.filter(PoolDefaultsReport::isApplied)
			.map(PoolDefaultsReport::describe)
			.toList();
		List<String> leftAlone = pools.stream()
			.filter((pool) -> !pool.isApplied())
			.map(PoolDefaultsReport::describe)
			.toList();
		String note = pools.isEmpty() ? "no Hikari pool in this application"
				: leftAlone.isEmpty() ? null : String.join("; ", leftAlone);
		// Every pool, so that a pool left alone is never announced as "no pool" (issue
		// 23).
		String scope = pools.stream().map(PoolDefaultsReport::shortForm).collect(Collectors.joining(", "));
		return new FeatureStatus(FEATURE, true, appliedTo, note).withScope(scope.isEmpty() ? "no pool" : scope);
	}

	/**
	 * With the defaults off: per pool, whether the JDBC checks look at it.
	 */
	private @Nullable String checksOnlyScope() {
		List<String> pools = new ArrayList<>();
		HikariPools.find(this.beanFactory).forEach((beanName, pool) -> {
			String subject = HikariPools.subject(beanName, pool);
			String leftAloneBecause = (pool.getJdbcUrl() != null) ? leftAloneBecause(pool) : null;
			if (leftAloneBecause != null) {
				pools.add(subject + ": left alone, " + leftAloneBecause);
			}
			else {
				pools.add(subject + ": checks only");
			}
		});
		return pools.isEmpty() ? null : String.join(", ", pools);
	}

	/**
	 * Why the drivers' defaults would leave a pool alone: {@code null} when one driver's
	 * are for it, or when no driver adds any.
	 */
	private @Nullable String leftAloneBecause(HikariDataSource pool) {
		String because = null;
		for (DriverDefaults driver : this.drivers) {
			String driverBecause = driver.leftAloneBecause(pool);
			if (driverBecause == null) {
				return null;
			}
			because = (because != null) ? because : driverBecause;
		}
		return because;
	}

}
