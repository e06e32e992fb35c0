package dev.safedefaults.system;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 44 end to end: the packaged sample app calls its downstream through a
 * {@code RestClient} it built itself with {@code RestClient.builder()} ({@code GET
 * /api/orders/{id}?client=hand-built}), which no timeout of the starter reaches, and the
 * downstream accepts and never answers. Within the threshold plus 10 s of the first stuck
 * request one WARN line names the wait (an HTTP response, the downstream's host and port,
 * the client library) and the finding is on the health group while the requests last; it
 * is cleared when they end. With the watch switched off, nothing is named within the same
 * bound. Covers {@code StuckRequestsMetricsAutoConfiguration} and
 * {@code StuckRequestsMeters} (the gauge counts the stuck requests, then none; no gauge
 * with the watch off).
 */
class SampleAppStuckRequestsIT {

	/** Kept small for the test; the default is 60 s. */
	private static final Duration THRESHOLD = Duration.ofSeconds(2);

	/** The promise: named within the threshold plus 10 s of the first stuck request. */
	private static final Duration NAMED_WITHIN = THRESHOLD.plusSeconds(10);

	private static final int STUCK_REQUESTS = 3;

	private static final String CALLS_THE_HAND_BUILT_CLIENT = "/api/orders/1?client=hand-built";

	private static final String WARN_LINE = "stuck-requests.waiting HTTP response: ";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@Test
	void requestsStuckOnAHandBuiltClientAreNamedInOneWarnLineAndOnTheHealthGroupUntilTheyEnd() throws Exception {
		try (SilentDownstream silent = new SilentDownstream();
				SampleAppProcess app = start("stuck-requests", silent,
						"--safe-defaults.stuck-requests.threshold=" + THRESHOLD.toSeconds() + "s")) {
			String hostAndPort = URI.create(silent.url()).getAuthority();
			assertThat(app.log()).containsPattern("safe-defaults: applied [^\\n]*stuck-requests\\(2s\\)");
			// First a healthy load: 200 requests that end in time are never named, and
			// none is left behind as in flight once the threshold has passed.
			for (int i = 0; i < 200; i++) {
				assertThat(app.get("/actuator/info").statusCode()).isEqualTo(200);
			}
			await("nothing named after a healthy load").during(THRESHOLD.plusSeconds(1))
				.atMost(THRESHOLD.plusSeconds(10))
				.until(() -> warnLines(app).isEmpty() && app.finding("stuck-requests.waiting") == null
						&& gauge(app) == 0);
			List<CompletableFuture<HttpResponse<Void>>> stuck = callTheHandBuiltClient(app);
			awaitStuckOnTheDownstream(silent, app);
			long firstStuck = System.nanoTime();
			await("the WARN line naming the wait").atMost(NAMED_WITHIN)
				.until(() -> warnLines(app).size() >= 1 || !app.isAlive());
			System.out.printf("SampleAppStuckRequestsIT: named %d ms after the downstream held the calls%n",
					Duration.ofNanos(System.nanoTime() - firstStuck).toMillis());
			List<String> lines = warnLines(app);
			assertThat(lines).as("WARN lines naming the wait; log:\n%s", app.log()).hasSize(1);
			assertThat(lines.get(0)).contains(" WARN ")
				.contains(WARN_LINE + hostAndPort + " (JDK HttpClient via RestClient)")
				.containsAnyOf("wait for an HTTP response from " + hostAndPort,
						"waits for an HTTP response from " + hostAndPort)
				.contains("HandBuiltRestClientPricing.price")
				.contains("(GET /api/orders/{id})")
				.contains("RestClient.Builder");
			JsonNode finding = app.finding("stuck-requests.waiting");
			assertThat(finding).as("the finding on the health group").isNotNull();
			assertThat(finding.path("severity").asString()).isEqualTo("WARNING");
			assertThat(finding.path("subject").asString())
				.startsWith("HTTP response: " + hostAndPort + " (JDK HttpClient via RestClient) at "
						+ "dev.safedefaults.sample.pricing.HandBuiltRestClientPricing.price");
			await("all " + STUCK_REQUESTS + " requests counted").atMost(NAMED_WITHIN)
				.until(() -> gauge(app) == STUCK_REQUESTS);
			assertThat(warnLines(app)).as("still one WARN line for the same wait").hasSize(1);
			// The downstream answers 503: the calls fail, the requests end, the finding
			// goes.
			silent.answerEveryCall();
			for (CompletableFuture<HttpResponse<Void>> request : stuck) {
				assertThat(request.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(502);
			}
			await("the finding cleared").atMost(NAMED_WITHIN)
				.until(() -> app.finding("stuck-requests.waiting") == null);
			assertThat(gauge(app)).isZero();
		}
	}

	@Test
	void withTheWatchSwitchedOffNothingIsNamedWithinTheSameBound() throws Exception {
		try (SilentDownstream silent = new SilentDownstream();
				SampleAppProcess app = start("stuck-requests-off", silent,
						"--safe-defaults.stuck-requests.threshold=" + THRESHOLD.toSeconds() + "s",
						"--safe-defaults.stuck-requests.enabled=false")) {
			assertThat(app.log()).containsPattern("safe-defaults: applied [^\\n]*; off: [^\\n]*stuck-requests");
			List<CompletableFuture<HttpResponse<Void>>> stuck = callTheHandBuiltClient(app);
			awaitStuckOnTheDownstream(silent, app);
			// An absence over the bound the first test is named within (its positive
			// control): the same requests, the same downstream.
			await("nothing named while the requests wait").during(NAMED_WITHIN)
				.atMost(NAMED_WITHIN.plusSeconds(5))
				.until(() -> warnLines(app).isEmpty() && app.finding("stuck-requests.waiting") == null);
			assertThat(app.get("/actuator/metrics/safedefaults.stuck-requests").statusCode()).isEqualTo(404);
			silent.answerEveryCall();
			for (CompletableFuture<HttpResponse<Void>> request : stuck) {
				assertThat(request.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(502);
			}
		}
	}

	private static SampleAppProcess start(String name, SilentDownstream silent, String... settings) {
		List<String> args = new ArrayList<>(List.of("--sample.downstream.url=" + silent.url()));
		args.addAll(List.of(settings));
		SampleAppProcess app = SampleAppProcess.start(name, List.of(), args);
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
		return app;
	}

	private List<CompletableFuture<HttpResponse<Void>>> callTheHandBuiltClient(SampleAppProcess app) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(app.baseUrl() + CALLS_THE_HAND_BUILT_CLIENT))
			.timeout(Duration.ofMinutes(2))
			.build();
		List<CompletableFuture<HttpResponse<Void>>> calls = new ArrayList<>();
		for (int i = 0; i < STUCK_REQUESTS; i++) {
			calls.add(this.http.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
		}
		return calls;
	}

	private static void awaitStuckOnTheDownstream(SilentDownstream silent, SampleAppProcess app) {
		await("every call held by the silent downstream").atMost(Duration.ofSeconds(60))
			.until(() -> silent.accepted() >= STUCK_REQUESTS || !app.isAlive());
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
	}

	private static List<String> warnLines(SampleAppProcess app) {
		return app.log().lines().filter((line) -> line.contains(WARN_LINE)).toList();
	}

	private static double gauge(SampleAppProcess app) {
		HttpResponse<String> response = app.get("/actuator/metrics/safedefaults.stuck-requests");
		assertThat(response.statusCode()).as("GET the gauge: %s", response.body()).isEqualTo(200);
		return JSON.readTree(response.body()).path("measurements").get(0).path("value").asDouble();
	}

}
