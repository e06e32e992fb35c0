package dev.safedefaults.check.actuate;

import java.util.List;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Reports the current findings as health details. The status is always {@code UP}: a
 * warning must never take an instance out of a load balancer or fail a liveness or
 * readiness probe (as Boot's {@code SslHealthIndicator} reports expiring certificates).
 */
public class SafeDefaultsHealthIndicator implements HealthIndicator {

	private final FindingsStore store;

	/**
	 * Creates the indicator.
	 * @param store the findings store
	 */
	public SafeDefaultsHealthIndicator(FindingsStore store) {
		this.store = store;
	}

	@Override
	public Health health() {
		List<Finding> findings = this.store.findings();
		return Health.up()
			.withDetail("findings", findings)
			.withDetail("warnings", findings.stream().filter((f) -> f.severity() == Severity.WARNING).count())
			.withDetail("infos", findings.stream().filter((f) -> f.severity() == Severity.INFO).count())
			.build();
	}

}
