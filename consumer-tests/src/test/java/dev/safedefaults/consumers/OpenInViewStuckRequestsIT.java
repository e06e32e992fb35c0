package dev.safedefaults.consumers;

import java.io.UncheckedIOException;
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
import org.junit.jupiter.api.parallel.ResourceLock;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue 44 end to end, the pool drained behind open-in-view: the Boot 4.0 JPA project on
 * PostgreSQL ({@code boot40-postgresql-jpa}, {@code spring.jpa.open-in-view} on as Boot
 * leaves it) with a pool of two connections reads a note and then calls a pricing service
 * through a {@code RestClient} it built by hand ({@code GET /notes/{id}/priced}), which
 * accepts and never answers. Two such calls hold both connections; the plain {@code GET
 * /notes/{id}} behind them waits for one. Within the threshold plus 10 s the health
 * group's finding names the pool, its state, and says its connections are held by
 * requests waiting on an HTTP response from the pricing service's host and port; one WARN
 * line says the same. Once the pricing service answers, the requests end, the finding
 * clears and the notes answer again. Without the deadline (issue 51, off by default)
 * {@code /actuator/health} does not answer within 2 s meanwhile.
 */
@Slow
@ResourceLock(ConsumerApp.POSTGRESQL_NOTES_TABLE)
class OpenInViewStuckRequestsIT {

	private static final String PROJECT = "boot40-postgresql-jpa";

	/** Kept small for the test; the default is 60 s. */
	private static final Duration THRESHOLD = Duration.ofSeconds(2);

	/** The promise: named within the threshold plus 10 s of the pool's first waiter. */
	private static final Duration NAMED_WITHIN = THRESHOLD.plusSeconds(10);

	private static final int POOL_SIZE = 2;

	/** Plain reads sent once every connection is held. */
	private static final int WAITERS = 2;

	/**
	 * Each call's own bound, so that none outlives the test; longer than the pool's
	 * connection timeout ({@link #POOL_CONNECTION_TIMEOUT}), so that a read waiting for
	 * the pool ends by the pool, not by the client.
	 */
	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(180);

	/**
	 * How long a plain read waits for a connection: far longer than the test keeps the
	 * pool drained (the threshold plus 10 s, then a health call or two), so that on a
	 * loaded machine the reads still get their connection rather than Hikari's 30 s
	 * default failing them.
	 */
	private static final Duration POOL_CONNECTION_TIMEOUT = Duration.ofSeconds(120);

	private static final String POOL_WARN_LINE = "stuck-requests.waiting pool connection: HikariPool-1 at ";

	@Test
	void aPoolDrainedByOpenInViewRequestsWaitingOnHttpIsNamedWithItsHoldersAndTheServiceRecovers() throws Exception {
		ConsumerAppsIT.requirePostgreSql();
		ExecutorService callers = Executors.newFixedThreadPool(POOL_SIZE + WAITERS);
		try (SilentDownstream pricing = new SilentDownstream();
				ConsumerApp app = ConsumerApp.start(PROJECT,
						"--spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test",
						"--spring.datasource.hikari.maximum-pool-size=" + POOL_SIZE,
						"--spring.datasource.hikari.connection-timeout=" + POOL_CONNECTION_TIMEOUT.toMillis(),
						"--safe-defaults.stuck-requests.threshold=" + THRESHOLD.toSeconds() + "s",
						"--pricing.url=" + pricing.url())) {
			String hostAndPort = URI.create(pricing.url()).getAuthority();
			String holders = "HTTP response: " + hostAndPort + " (JDK HttpClient via RestClient)";
			assertThat(app.log()).containsPattern("safe-defaults: applied [^\\n]*stuck-requests\\(2s\\)");
			// The starter's own checks take a connection once: done before the pool is
			// drained.
			app.awaitLog("deferred checks done", Duration.ofSeconds(60));
			String id = app.post("/notes", "Ada").body();
			List<CompletableFuture<HttpResponse<String>>> priced = new ArrayList<>();
			for (int i = 0; i < POOL_SIZE; i++) {
				priced.add(call(app, "/notes/" + id + "/priced", callers));
			}
			// Each read its note (taking a connection, kept by open-in-view) before it
			// called the pricing service.
			await("every priced call held by the pricing service").atMost(Duration.ofSeconds(60))
				.until(() -> pricing.accepted() >= POOL_SIZE || priced.stream().anyMatch(CompletableFuture::isDone));
			assertThat(priced).as("priced calls answered while the pricing service is silent; log:\n%s", app.log())
				.noneMatch(CompletableFuture::isDone);
			List<CompletableFuture<HttpResponse<String>>> reads = new ArrayList<>();
			for (int i = 0; i < WAITERS; i++) {
				reads.add(call(app, "/notes/" + id, callers));
			}
			long firstWaiter = System.nanoTime();
			await("the pool's finding").atMost(NAMED_WITHIN).until(() -> poolFinding(app) != null);
			System.out.printf("OpenInViewStuckRequestsIT: the pool named %d ms after its first waiter%n",
					Duration.ofNanos(System.nanoTime() - firstWaiter).toMillis());
			JsonNode finding = poolFinding(app);
			assertThat(finding.path("severity").asString()).isEqualTo("WARNING");
			assertThat(finding.path("subject").asString())
				.startsWith("pool connection: HikariPool-1 at com.example.consumer.NoteController.read");
			assertThat(finding.path("message").asString()).as("%s", finding)
				.containsAnyOf("wait for a connection from HikariPool-1, at com.example.consumer.NoteController.read",
						"waits for a connection from HikariPool-1, at com.example.consumer.NoteController.read")
				.contains("(GET /notes/{id})")
				.contains("HikariPool-1: 2 of 2 connections in use")
				.contains("its connections are probably held by the other requests past the threshold, which wait: "
						+ POOL_SIZE + " on " + holders)
				.contains("spring.jpa.open-in-view");
			assertThat(finding.path("fix").asString()).contains("spring.jpa.open-in-view=false");
			assertThat(reads).as("plain reads answered while the pool is drained").noneMatch(CompletableFuture::isDone);
			// Issue 51, the deadline off (as by default): health waits for a connection
			// too, and does not answer within 2 s (OpenInViewDeadlineIT: with it on).
			assertThatThrownBy(() -> app.get("/actuator/health", Duration.ofSeconds(2)))
				.as("health answered while the pool is drained")
				.isInstanceOf(UncheckedIOException.class);
			System.out.printf("OpenInViewStuckRequestsIT: health did not answer within 2 s, %d ms after the first "
					+ "waiter (no deadline)%n", Duration.ofNanos(System.nanoTime() - firstWaiter).toMillis());
			// The finding is published, then logged (through Log4j2's async loggers):
			// the line may follow the finding by a moment.
			app.awaitLog(POOL_WARN_LINE, Duration.ofSeconds(10));
			app.awaitLog("stuck-requests.waiting " + holders, Duration.ofSeconds(10));
			List<String> lines = warnLines(app, POOL_WARN_LINE);
			assertThat(lines).as("WARN lines naming the pool; log:\n%s", app.log()).hasSize(1);
			assertThat(lines.get(0)).contains(" WARN ")
				.contains("HikariPool-1: 2 of 2 connections in use")
				.contains("its connections are probably held by the other requests past the threshold, which wait: "
						+ POOL_SIZE + " on " + holders);
			assertThat(warnLines(app, "stuck-requests.waiting " + holders)).as("WARN lines naming the holders' wait")
				.singleElement()
				.satisfies((line) -> assertThat(line).contains("NoteController.priced")
					.contains("(GET /notes/{id}/priced)"));
			// The pricing service answers 503: the priced calls fail, free their
			// connections, and the reads get them.
			pricing.answerEveryCall();
			for (CompletableFuture<HttpResponse<String>> call : priced) {
				assertThat(call.get(60, TimeUnit.SECONDS).statusCode()).as("a priced call").isEqualTo(502);
			}
			for (CompletableFuture<HttpResponse<String>> read : reads) {
				HttpResponse<String> response = read.get(60, TimeUnit.SECONDS);
				assertThat(response.statusCode()).as("a read that waited for the pool: %s", response.body())
					.isEqualTo(200);
				assertThat(response.body()).isEqualTo("Ada");
			}
			await("the findings cleared").atMost(NAMED_WITHIN).until(() -> stuckRequestsFindings(app).isEmpty());
			assertThat(app.get("/notes/" + id, Duration.ofSeconds(10)).body()).as("a read after the recovery")
				.isEqualTo("Ada");
			app.awaitLog("safe-defaults: no request runs longer than 2s any more", Duration.ofSeconds(10));
		}
		finally {
			callers.shutdownNow();
		}
	}

	private static CompletableFuture<HttpResponse<String>> call(ConsumerApp app, String path, ExecutorService callers) {
		return CompletableFuture.supplyAsync(() -> app.get(path, CALL_TIMEOUT), callers);
	}

	private static List<String> warnLines(ConsumerApp app, String text) {
		return app.log().lines().filter((line) -> line.contains(text)).toList();
	}

	private static JsonNode poolFinding(ConsumerApp app) {
		return stuckRequestsFindings(app).stream()
			.filter((finding) -> finding.path("subject").asString().startsWith("pool connection"))
			.findFirst()
			.orElse(null);
	}

	private static List<JsonNode> stuckRequestsFindings(ConsumerApp app) {
		List<JsonNode> found = new ArrayList<>();
		for (JsonNode finding : app.getJson("/actuator/health/safe-defaults")
			.path("components")
			.path("safeDefaults")
			.path("details")
			.path("findings")) {
			if ("stuck-requests.waiting".equals(finding.path("id").asString())) {
				found.add(finding);
			}
		}
		return found;
	}

}
