package dev.safedefaults.system;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app stops cleanly (issue 16): requests in flight at SIGTERM complete,
 * on a database that stops only after the web server has drained, and a failed start ends
 * the JVM.
 */
class SampleAppStopIT {

	@Test
	void requestsInFlightAtSigtermCompleteOnTheDatabase() throws Exception {
		try (SampleAppProcess app = SampleAppProcess.start("stop-in-flight", List.of(), List.of())) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			// Each request waits 3 s before it reads and updates its order: SIGTERM arrives meanwhile.
			List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				long id = 1 + (i % 3);
				inFlight.add(CompletableFuture.supplyAsync(() -> app.get("/api/orders/" + id + "?delay=3000")));
			}
			Thread.sleep(1_000);
			long sigterm = System.nanoTime();
			app.terminate();
			for (CompletableFuture<HttpResponse<String>> request : inFlight) {
				HttpResponse<String> response = request.get();
				assertThat(response.statusCode()).as("in flight at SIGTERM: %s; log:\n%s", response.body(), app.log())
					.isEqualTo(200);
				assertThat(response.body()).contains("\"amount\"");
			}
			assertThat(app.awaitExit(Duration.ofSeconds(30))).as("exited; log:\n%s", app.log()).isTrue();
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			// Drained in ~2 s, then pool and database: far from Boot's 30 s grace period.
			assertThat(stop).as("log:\n%s", app.log()).isLessThan(Duration.ofSeconds(20));
			assertThat(app.log()).contains("Graceful shutdown complete");
		}
	}

	@Test
	void aFailedStartEndsTheJvm() throws Exception {
		// 192.0.2.1 (TEST-NET-1) is no address of this machine: Tomcat cannot bind, after the
		// downstream server and the database have started.
		try (SampleAppProcess app = SampleAppProcess.start("failed-start", List.of(),
				List.of("--server.address=192.0.2.1"))) {
			assertThat(app.awaitExit()).as("log:\n%s", app.log()).isNotZero();
			assertThat(app.log()).contains("Embedded MariaDB started");
		}
	}

}
