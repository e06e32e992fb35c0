package dev.safedefaults.benchmarks.workload;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import dev.safedefaults.system.SampleAppProcess;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short run of the reference-workload harness: outcomes, not speed. Every request is
 * answered 200 in the starter and naive modes, the harness's counters work (the discard
 * counter counts what a stalled stdout makes the starter discard), and the naive profile
 * with the starter off has no health group and no counter (404s) while the starter mode
 * reports no finding for the plainly written app (a missing group fails the run).
 */
class ReferenceWorkloadSmokeIT {

	private static final JsonMapper JSON = JsonMapper.builder().build();

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
		// Healthy: next to none (the naive mode creates more than one per request). A 3 s
		// window on a
		// loaded machine may answer only a few dozen requests, so one or two stray
		// throwables (a
		// client closing its connection) must not fail it: 0.083 was seen at load average
		// 27.
		assertThat(figures.throwablesPerRequest()).isBetween(0.0, 0.25);
		// stdout is a file that keeps up and the ring holds 32,768 events: nothing may be
		// lost.
		assertThat(figures.discarded()).isZero();
	}

	/**
	 * The counter the harness reads counts: behind a stdout nobody reads, a ring of 128
	 * slots fills (after the pipe's 64 KB), INFO is discarded and counted, and every
	 * request is still answered. Requests are sent until the counter moves (at most two
	 * minutes).
	 */
	@Test
	void behindAStalledStdoutTheStarterDiscardsInfoAndCountsIt() {
		try (SampleAppProcess app = SampleAppProcess.start("smoke-stalled",
				List.of("-Dlog4j2.asyncLoggerRingBufferSize=128"), List.of(), true)) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			assertThat(discarded(app)).isZero();
			app.stallStdout();
			long requests = 0;
			long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
			while (discarded(app) == 0 && System.nanoTime() < deadline) {
				for (int i = 0; i < 20; i++, requests++) {
					assertThat(app.get("/api/orders/" + (1 + i % 3)).statusCode()).isEqualTo(200);
				}
			}
			assertThat(discarded(app)).as("discarded after %d requests behind the stalled stdout", requests)
				.isPositive();
		}
	}

	private static long discarded(SampleAppProcess app) {
		HttpResponse<String> response = app.get("/actuator/metrics/safedefaults.logging.discarded");
		assertThat(response.statusCode())
			.as("GET /actuator/metrics/safedefaults.logging.discarded: %s", response.body())
			.isEqualTo(200);
		return (long) JSON.readTree(response.body()).path("measurements").path(0).path("value").asDouble();
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
