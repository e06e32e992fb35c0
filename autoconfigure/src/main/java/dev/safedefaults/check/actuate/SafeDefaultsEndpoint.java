package dev.safedefaults.check.actuate;

import java.util.List;
import java.util.Map;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.check.StartupCheckRunner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code GET /actuator/safedefaults}: every feature (enabled, what it was applied to, or
 * why not) and every current finding. Read-only; like any non-health endpoint it is not
 * exposed over the web unless the application adds it to
 * {@code management.endpoints.web.exposure.include}.
 */
@Endpoint(id = "safedefaults")
public class SafeDefaultsEndpoint {

	private final FindingsStore store;

	private final ObjectProvider<FeatureStatusReporter> features;

	private final ObjectProvider<StartupCheckRunner> runner;

	/**
	 * Creates the endpoint.
	 * @param store the findings store
	 * @param features the features' status reporters
	 * @param runner the startup check runner, absent when checks are off
	 */
	public SafeDefaultsEndpoint(FindingsStore store, ObjectProvider<FeatureStatusReporter> features,
			ObjectProvider<StartupCheckRunner> runner) {
		this.store = store;
		this.features = features;
		this.runner = runner;
	}

	/**
	 * Returns the report.
	 * @return features, findings and the startup checks' cost
	 */
	@ReadOperation
	public SafeDefaultsReport report() {
		List<FeatureStatus> statuses = this.features.orderedStream().map(FeatureStatusReporter::status).toList();
		StartupCheckRunner checkRunner = this.runner.getIfAvailable();
		Map<String, Object> checks = (checkRunner != null)
				? Map.of("enabled", true, "startupChecks", checkRunner.getStartupCheckCount(), "startupMillis",
						checkRunner.getStartupDuration().toNanos() / 1_000_000.0, "startupMillisByCheck",
						checkRunner.getStartupMillisByCheck())
				: Map.of("enabled", false);
		return new SafeDefaultsReport(statuses,
				this.store.findings().stream().map(SafeDefaultsHealthIndicator::toMap).toList(),
				this.store.count(Severity.WARNING), this.store.count(Severity.INFO), checks);
	}

	/**
	 * What the endpoint returns.
	 *
	 * @param features every feature's status
	 * @param findings every current finding
	 * @param warnings how many findings are warnings
	 * @param infos how many findings are informational
	 * @param checks whether startup checks ran, how many and how long they took
	 */
	public record SafeDefaultsReport(List<FeatureStatus> features, List<Map<String, Object>> findings, long warnings,
			long infos, Map<String, Object> checks) {
	}

}
