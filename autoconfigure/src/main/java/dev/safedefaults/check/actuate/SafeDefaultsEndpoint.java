package dev.safedefaults.check.actuate;

import java.util.List;
import java.util.Map;

import dev.safedefaults.check.CheckRun;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.check.StartupCheckRunner;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code GET /actuator/safedefaults}: every feature (enabled, what it was applied to, or
 * why not), every current finding, and every check with its status (deferred ones
 * included). Read-only; like any non-health endpoint it is not exposed over the web
 * unless the application adds it to {@code management.endpoints.web.exposure.include}.
 * The response is typed ({@link SafeDefaultsReport}) and serialised by Boot's JSON
 * support.
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
	 * @return features, findings and the checks
	 */
	@ReadOperation
	public SafeDefaultsReport report() {
		List<FeatureStatus> statuses = this.features.orderedStream().map(FeatureStatusReporter::statusOf).toList();
		StartupCheckRunner checkRunner = this.runner.getIfAvailable();
		ChecksReport checks = (checkRunner != null) ? new ChecksReport(true, checkRunner.getStartupCheckCount(),
				checkRunner.getStartupDuration().toNanos() / 1_000_000.0, checkRunner.getStartupMillisByCheck(),
				checkRunner.getRuns()) : new ChecksReport(false, 0, null, Map.of(), List.of());
		return new SafeDefaultsReport(statuses, this.store.findings(), this.store.count(Severity.WARNING),
				this.store.count(Severity.INFO), checks);
	}

	/**
	 * What the endpoint returns.
	 *
	 * @param features every feature's status
	 * @param findings every current finding
	 * @param warnings how many findings are warnings
	 * @param infos how many findings are informational
	 * @param checks whether checks ran, how long the startup ones took, and each check's
	 * status
	 */
	public record SafeDefaultsReport(List<FeatureStatus> features, List<Finding> findings, long warnings, long infos,
			ChecksReport checks) {
	}

	/**
	 * The checks.
	 *
	 * @param enabled whether checks run ({@code safe-defaults.checks.enabled})
	 * @param startupChecks how many ran at startup
	 * @param startupMillis how long they took together, {@code null} when checks are off
	 * @param startupMillisByCheck how long each startup check took
	 * @param runs every check, deferred ones included, with its status
	 */
	public record ChecksReport(boolean enabled, int startupChecks, @Nullable Double startupMillis,
			Map<String, Double> startupMillisByCheck, List<CheckRun> runs) {
	}

}
