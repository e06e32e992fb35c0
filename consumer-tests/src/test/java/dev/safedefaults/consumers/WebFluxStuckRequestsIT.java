package dev.safedefaults.consumers;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.testsupport.SilentDownstream;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static dev.safedefaults.consumers.ConsumerApp.feature;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 52 end to end, in one start of the Boot 4.1 WebFlux project
 * ({@code boot41-webflux}: Reactor Netty, a WebClient from Boot's builder and one from
 * {@code WebClient.create()}): the starter applies there (its logging, its timeouts, the
 * stuck-request watch with its event loops on the startup line); a healthy load raises
 * nothing; a handler that sleeps on its event loop is named within the default bound (2
 * s) plus 1 s, with its application frame, and the loop's recovery is logged; exchanges
 * waiting on a downstream that never answers are named within the threshold plus 10 s:
 * through Boot's WebClient with the downstream's host and port, through
 * {@code WebClient.create()} as a wait the watch cannot join, said plainly; once the
 * downstream answers, the findings clear.
 */
@Slow
class WebFluxStuckRequestsIT {

	private static final String PROJECT = "boot41-webflux";

	/** Kept small for the test; the default is 60 s. */
	private static final Duration THRESHOLD = Duration.ofSeconds(2);

	/** The event loops' default bound. */
	private static final Duration BLOCKED_BOUND = Duration.ofSeconds(2);

	/** How long the blocking handler sleeps: well past the bound. */
	private static final Duration SLEEP = Duration.ofSeconds(5);

	/** Calls that each build a WebClient: past the first report (20 builds). */
	private static final int PER_REQUEST_CALLS = 25;

	private static final String BLOCKED_LINE = "stuck-requests.event-loop-blocked ";

	@Test
	void aBlockedEventLoopAndStuckExchangesAreNamedOnAWebFluxService() throws Exception {
		ExecutorService callers = Executors.newFixedThreadPool(4);
		ExecutorService burst = Executors.newFixedThreadPool(PER_REQUEST_CALLS);
		try (SilentDownstream pricing = new SilentDownstream();
				ConsumerApp app = ConsumerApp.start(PROJECT,
						"--safe-defaults.stuck-requests.threshold=" + THRESHOLD.toSeconds() + "s",
						"--pricing.url=" + pricing.url())) {
			String hostAndPort = URI.create(pricing.url()).getAuthority();
			// The starter applies on a WebFlux service: its startup line, its logging,
			// its
			// client timeouts, the watch with its event loops.
			assertThat(app.log()).containsPattern("safe-defaults: applied [^\\n]*http-client-timeouts\\(10s/60s\\)")
				.containsPattern("safe-defaults: applied [^\\n]*logging")
				.containsPattern("safe-defaults: applied [^\\n]*config-cache")
				.containsPattern("safe-defaults: applied [^\\n]*stuck-requests\\(2s, event loops 2s\\)");
			assertThat(app.getJson("/actuator/health/safe-defaults").path("status").asString()).isEqualTo("UP");
			JsonNode report = app.getJson("/actuator/safedefaults");
			assertThat(report.path("findings")).as("findings of a clean start: %s", report.path("findings")).isEmpty();
			JsonNode logging = feature(report, "logging");
			assertThat(logging.path("appliedTo").toString()).as("%s", logging).contains("all loggers asynchronous");
			JsonNode cache = feature(report, "config-cache");
			assertThat(cache.path("enabled").asBoolean()).as("%s", cache).isTrue();
			JsonNode timeouts = feature(report, "http-client-timeouts");
			assertThat(timeouts.path("enabled").asBoolean()).as("%s", timeouts).isTrue();
			JsonNode stuck = feature(report, "stuck-requests");
			assertThat(stuck.path("appliedTo").toString()).as("%s", stuck).contains("Reactor Netty event loops");

			// A healthy load: nothing named.
			for (int round = 0; round < 10; round++) {
				assertThat(app.getConcurrently(8, "/hello", Duration.ofSeconds(30))).containsOnly("hello");
			}
			assertThat(findings(app, "stuck-requests.event-loop-blocked")).isEmpty();
			assertThat(app.log()).doesNotContain(BLOCKED_LINE);

			// A handler that sleeps on its event loop: named within the bound plus 1 s.
			long sent = System.nanoTime();
			CompletableFuture<HttpResponse<String>> blocking = call(app, "/block?millis=" + SLEEP.toMillis(), callers);
			app.awaitLog(BLOCKED_LINE, BLOCKED_BOUND.plusSeconds(1));
			long namedAfter = Duration.ofNanos(System.nanoTime() - sent).toMillis();
			System.out.printf("WebFluxStuckRequestsIT: the blocked event loop named %d ms after the request%n",
					namedAfter);
			String line = lines(app, BLOCKED_LINE).get(0);
			assertThat(line).contains(" WARN ")
				.containsPattern("stuck-requests.event-loop-blocked reactor-http-\\w+-\\d+: sleep: Thread.sleep at "
						+ "com.example.consumer.BlockingController.block:\\d+")
				.contains("has run none of its tasks for longer than 2s")
				.contains("Schedulers.boundedElastic()");
			assertThat(blocking.get(30, TimeUnit.SECONDS).body()).isEqualTo("slept " + SLEEP.toMillis() + " ms");
			app.awaitLog("safe-defaults: an event loop runs its tasks again: reactor-http-", Duration.ofSeconds(5));
			assertThat(lines(app, BLOCKED_LINE)).as("one WARN line for the episode").hasSize(1);
			await("the event-loop finding cleared").atMost(Duration.ofSeconds(5))
				.until(() -> findings(app, "stuck-requests.event-loop-blocked").isEmpty());

			// Exchanges waiting on a downstream that never answers: named within the
			// threshold plus 10 s.
			List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
			waiting.add(call(app, "/prices/1/booted", callers));
			waiting.add(call(app, "/prices/2/created", callers));
			// A WebClient built per request from Boot's builder: where issue 52's point 3
			// (a client built per request, named as RestClient's is) shows on this build.
			waiting.add(call(app, "/prices/3/per-request", callers));
			await("the calls at the pricing service").atMost(Duration.ofSeconds(30))
				.until(() -> pricing.accepted() >= waiting.size());
			long stuckFrom = System.nanoTime();
			await("the stuck exchanges named").atMost(THRESHOLD.plusSeconds(10))
				.until(() -> findings(app, "stuck-requests.waiting").size() == waiting.size());
			System.out.printf("WebFluxStuckRequestsIT: the stuck exchanges named %d ms after the calls arrived%n",
					Duration.ofNanos(System.nanoTime() - stuckFrom).toMillis());
			List<JsonNode> exchanges = findings(app, "stuck-requests.waiting");
			assertThat(exchanges).anySatisfy((finding) -> {
				assertThat(finding.path("subject").asString()).isEqualTo("HTTP response: " + hostAndPort
						+ " (WebClient from Boot's WebClient.Builder) at GET /prices/{id}/booted");
				assertThat(finding.path("message").asString())
					.contains("1 exchange running longer than 2s waits for an HTTP response from " + hostAndPort);
			})
				.anySatisfy((finding) -> assertThat(finding.path("subject").asString()).isEqualTo("HTTP response: "
						+ hostAndPort + " (WebClient from Boot's WebClient.Builder) at GET /prices/{id}/per-request"))
				.anySatisfy((finding) -> {
					assertThat(finding.path("subject").asString())
						.isEqualTo("exchange: no outbound call the watch can join at GET /prices/{id}/created");
					assertThat(finding.path("message").asString())
						.contains("a WebClient.create() or WebClient.builder() client");
				});
			app.awaitLog("stuck-requests.waiting HTTP response: " + hostAndPort, Duration.ofSeconds(10));
			pricing.answerEveryCall();
			for (CompletableFuture<HttpResponse<String>> call : waiting) {
				assertThat(call.get(60, TimeUnit.SECONDS).statusCode()).as("a priced call").isEqualTo(500);
			}
			await("the findings cleared").atMost(THRESHOLD.plusSeconds(10))
				.until(() -> findings(app, "stuck-requests.waiting").isEmpty());
			// The second episode's end (the first was the blocking handler's own
			// exchange).
			await("the episode's INFO line").atMost(Duration.ofSeconds(10))
				.until(() -> lines(app, "safe-defaults: no exchange runs longer than 2s any more").size() == 2);

			// A WebClient built per request from Boot's builder is named as RestClient's
			// is (issue 52, point 3): the one call above built one, under the first
			// report;
			// a burst of builds raises the finding, with the handler that builds.
			assertThat(findings(app, "webclient.per-request-build")).isEmpty();
			int before = pricing.accepted();
			List<CompletableFuture<HttpResponse<String>>> perRequest = new ArrayList<>();
			for (int i = 0; i < PER_REQUEST_CALLS; i++) {
				perRequest.add(call(app, "/prices/" + i + "/per-request", burst));
			}
			await("the per-request calls at the pricing service").atMost(Duration.ofSeconds(30))
				.until(() -> pricing.accepted() >= before + PER_REQUEST_CALLS);
			List<JsonNode> builds = findings(app, "webclient.per-request-build");
			assertThat(builds).as("the per-request builds named").hasSize(1);
			assertThat(builds.get(0).path("severity").asString()).isEqualTo("WARNING");
			assertThat(builds.get(0).path("message").asString()).contains("handed out")
				.contains("PricesController.perRequest");
			pricing.answerEveryCall();
			for (CompletableFuture<HttpResponse<String>> call : perRequest) {
				assertThat(call.get(60, TimeUnit.SECONDS).statusCode()).as("a priced call").isEqualTo(500);
			}
		}
		finally {
			callers.shutdownNow();
			burst.shutdownNow();
		}
	}

	private static CompletableFuture<HttpResponse<String>> call(ConsumerApp app, String path, ExecutorService callers) {
		return CompletableFuture.supplyAsync(() -> app.get(path, Duration.ofSeconds(120)), callers);
	}

	private static List<String> lines(ConsumerApp app, String text) {
		return app.log().lines().filter((line) -> line.contains(text)).toList();
	}

	private static List<JsonNode> findings(ConsumerApp app, String id) {
		List<JsonNode> found = new ArrayList<>();
		for (JsonNode finding : app.getJson("/actuator/health/safe-defaults", Duration.ofSeconds(10))
			.path("components")
			.path("safeDefaults")
			.path("details")
			.path("findings")) {
			if (id.equals(finding.path("id").asString())) {
				found.add(finding);
			}
		}
		return found;
	}

}
