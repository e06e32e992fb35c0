package dev.safedefaults.system;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.safedefaults.testsupport.LoggingStopContract;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app stops cleanly (issue 16): requests in flight at SIGTERM
 * complete, on a database that stops only after the web server has drained, and a failed
 * start ends the JVM.
 */
@OnEveryJdk
class SampleAppStopIT {

	/** Boot's {@code spring.lifecycle.timeout-per-shutdown-phase}, the sample's too. */
	private static final Duration BOOT_PHASE = Duration.ofSeconds(30);

	private static final String IN_FLIGHT = "inflight";

	@Test
	void requestsInFlightAtSigtermCompleteOnTheDatabase() throws Exception {
		try (SampleAppProcess app = SampleAppProcess.start("stop-in-flight", List.of(), List.of())) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			// Each request waits 3 s before it reads and updates its order: SIGTERM
			// arrives meanwhile.
			List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				long id = 1 + (i % 3);
				inFlight.add(CompletableFuture
					.supplyAsync(() -> app.get("/api/orders/" + id + "?delay=3000&channel=" + IN_FLIGHT)));
			}
			// Each request logs its channel before its delay: all four are in Tomcat's
			// hands.
			awaitLogged(app, "for channel " + IN_FLIGHT, 4);
			long sigterm = System.nanoTime();
			app.terminate();
			for (CompletableFuture<HttpResponse<String>> request : inFlight) {
				HttpResponse<String> response = request.get();
				assertThat(response.statusCode()).as("in flight at SIGTERM: %s; log:\n%s", response.body(), app.log())
					.isEqualTo(200);
				assertThat(response.body()).contains("\"amount\"");
			}
			Duration bound = LoggingStopContract.stopBound(BOOT_PHASE, BOOT_PHASE);
			assertThat(app.awaitExit(bound.plusSeconds(30))).as("exited; log:\n%s", app.log()).isTrue();
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			// Drained in ~2 s, then pool and database: within the documented bound
			// (defaults: 62 s).
			assertThat(stop).as("log:\n%s", app.log()).isLessThan(bound);
			assertThat(app.log()).contains("Graceful shutdown complete");
		}
	}

	/**
	 * Waits (polling the log, at most a minute) until it holds {@code n} lines containing
	 * {@code text}.
	 */
	private static void awaitLogged(SampleAppProcess app, String text, int n) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (count(app.log(), text) < n) {
			assertThat(System.nanoTime() - deadline).as("%s requests logged; log:\n%s", n, app.log()).isNegative();
			Thread.sleep(50);
		}
	}

	private static int count(String text, String needle) {
		int count = 0;
		for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
			count++;
		}
		return count;
	}

	@Test
	void aFailedStartEndsTheJvm() throws Exception {
		// 192.0.2.1 (TEST-NET-1) is no address of this machine: Tomcat cannot bind, after
		// the
		// downstream server and the database have started.
		try (SampleAppProcess app = SampleAppProcess.start("failed-start", List.of(),
				List.of("--server.address=192.0.2.1"))) {
			assertThat(app.awaitExit()).as("log:\n%s", app.log()).isNotZero();
			assertThat(app.log()).contains("Embedded MariaDB started");
		}
	}

}
