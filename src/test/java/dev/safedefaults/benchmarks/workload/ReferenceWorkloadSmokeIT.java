package dev.safedefaults.benchmarks.workload;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short run of the reference-workload harness: outcomes, not speed. Every request is
 * answered 200 in the starter and naive modes, the harness's counters work, and the naive
 * profile with the starter off reports nothing (the starter is off) while the starter mode
 * reports no finding for the plainly written app.
 */
class ReferenceWorkloadSmokeIT {

	private static WorkloadRun.Figures smoke(WorkloadMode mode) throws Exception {
		return WorkloadRun.measure(mode, "smoke-" + mode.label, 4, Duration.ofSeconds(2), Duration.ofSeconds(3), false);
	}

	@Test
	void theStarterModeAnswersEveryRequestWithoutFindingsOrThrowables() throws Exception {
		WorkloadRun.Figures figures = smoke(WorkloadMode.STARTER);
		assertThat(figures.load().requests()).isPositive();
		assertThat(figures.load().byStatus()).containsOnlyKeys(200);
		assertThat(figures.findings()).isEmpty();
		assertThat(figures.statementsPerRequest()).isPositive();
		// Healthy: next to none (the naive mode creates more than one per request). A 3 s window on a
		// loaded machine may answer only a few dozen requests, so one or two stray throwables (a
		// client closing its connection) must not fail it: 0.083 was seen at load average 27.
		assertThat(figures.throwablesPerRequest()).isBetween(0.0, 0.25);
		assertThat(figures.discarded()).isNotNegative();
	}

	@Test
	void theNaiveModeAnswersEveryRequestAndThrowsAsTheIncidentsDid() throws Exception {
		WorkloadRun.Figures figures = smoke(WorkloadMode.NAIVE);
		assertThat(figures.load().byStatus()).containsOnlyKeys(200);
		// Starter off: no endpoint, no counter.
		assertThat(figures.discarded()).isEqualTo(-1);
		assertThat(figures.throwablesPerRequest()).isGreaterThan(1.0);
	}

}
