package dev.safedefaults.jdbc;

import java.util.List;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Says, per Hikari pool, which settings the JDBC feature added and which keys it left to
 * the user, or why it left a pool alone. URLs are masked.
 */
final class JdbcFeatureStatusReporter implements FeatureStatusReporter {

	static final String FEATURE = "jdbc";

	private final JdbcDefaultsProperties properties;

	private final ObjectProvider<MySqlProtocolDefaultsPostProcessor> postProcessor;

	JdbcFeatureStatusReporter(JdbcDefaultsProperties properties,
			ObjectProvider<MySqlProtocolDefaultsPostProcessor> postProcessor) {
		this.properties = properties;
		this.postProcessor = postProcessor;
	}

	@Override
	public FeatureStatus status() {
		MySqlProtocolDefaultsPostProcessor applier = this.postProcessor.getIfAvailable();
		if (!this.properties.isEnabled() || applier == null) {
			return FeatureStatus.off(FEATURE,
					"safe-defaults.jdbc.enabled=false: pools are left as configured; the JDBC checks still run");
		}
		List<PoolDefaultsReport> pools = applier.pools();
		List<String> appliedTo = pools.stream().filter(PoolDefaultsReport::isApplied).map(PoolDefaultsReport::describe).toList();
		List<String> leftAlone = pools.stream().filter((pool) -> !pool.isApplied()).map(PoolDefaultsReport::describe).toList();
		String note = pools.isEmpty() ? "no Hikari pool in this application"
				: leftAlone.isEmpty() ? null : String.join("; ", leftAlone);
		String scope = pools.stream().filter(PoolDefaultsReport::isApplied).map(PoolDefaultsReport::subject).collect(
				java.util.stream.Collectors.joining(", "));
		return new FeatureStatus(FEATURE, true, appliedTo, note).withScope(scope.isEmpty() ? "no pool" : scope);
	}

}
