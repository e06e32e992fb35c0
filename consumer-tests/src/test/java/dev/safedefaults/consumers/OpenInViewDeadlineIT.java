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
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Issue 51 end to end, the opt-in deadline
 * ({@code safe-defaults.stuck-requests.interrupt-after}, 3 s) on the shape of issue 44:
 * the Boot 4.0 JPA project on PostgreSQL ({@code boot40-postgresql-jpa}, open-in-view on
 * as Boot leaves it) with a pool of two connections, both taken by requests that read a
 * note and then wait on a pricing service that accepts and never answers, through a
 * client built by hand. Without the deadline ({@code OpenInViewStuckRequestsIT})
 * {@code /actuator/health} does not answer within 2 s; with it:
 * <ul>
 * <li>on platform threads, the JDK {@code HttpClient}'s waits are interrupted: health
 * answers and a fresh read of the database succeeds within the deadline plus 10 s of the
 * hang, the two calls fail as the application's handler makes them (502), and again once
 * the pricing service answers; a wait in Apache HttpClient 5's socket read, which an
 * interrupt cannot end on a platform thread, is left alone and its finding says so;</li>
 * <li>on JDK 25 with virtual threads, Apache HttpClient 5's socket reads are interrupted
 * the same way (the calls end with a 500: see below).</li>
 * </ul>
 * Two starts of the application, one per thread model; each prints the time from the hang
 * to health's first answer.
 */
@Slow
@ResourceLock(ConsumerApp.POSTGRESQL_NOTES_TABLE)
class OpenInViewDeadlineIT {

	private static final String PROJECT = "boot40-postgresql-jpa";

	private static final Duration DEADLINE = Duration.ofSeconds(3);

	/** The promise: the service answers again within the deadline plus 10 s. */
	private static final Duration ANSWERS_WITHIN = DEADLINE.plusSeconds(10);

	/** How long one health call may take to count as answered (issue 44's measure). */
	private static final Duration HEALTH_ANSWER = Duration.ofSeconds(2);

	private static final int POOL_SIZE = 2;

	/** Each call's own bound, so that none outlives the test. */
	private static final Duration CALL_TIMEOUT = Duration.ofSeconds(180);

	@Test
	void onPlatformThreadsTheJdkClientsWaitsAreInterruptedAndTheServiceAnswersAndApachesAreNamedAsNotEndable()
			throws Exception {
		ConsumerAppsIT.requirePostgreSql();
		ExecutorService callers = Executors.newFixedThreadPool(POOL_SIZE + 1);
		try (SilentDownstream pricing = new SilentDownstream(); ConsumerApp app = start(null, pricing)) {
			String hostAndPort = URI.create(pricing.url()).getAuthority();
			assertThat(app.log())
				.containsPattern("safe-defaults: applied [^\\n]*stuck-requests\\(3s, interrupt-after 3s\\)");
			assertThat(app.feature("stuck-requests").path("appliedTo").toString())
				.contains("a request still running after 3s (safe-defaults.stuck-requests.interrupt-after) in a wait "
						+ "an interrupt ends has its thread interrupted once");
			app.awaitLog("deferred checks done", Duration.ofSeconds(60));
			String id = app.post("/notes", "Ada").body();
			List<CompletableFuture<HttpResponse<String>>> priced = hang(app, pricing, "/notes/" + id + "/priced",
					callers);
			long hang = System.nanoTime();
			Duration healthAnswered = firstHealthAnswer(app, hang);
			System.out.printf("OpenInViewDeadlineIT (platform threads, JDK HttpClient): health answered %d ms after "
					+ "the hang (deadline %ds)%n", healthAnswered.toMillis(), DEADLINE.toSeconds());
			assertThat(healthAnswered).as("health answered after the hang; log:\n%s", app.log())
				.isLessThan(ANSWERS_WITHIN);
			HttpResponse<String> read = app.get("/notes/" + id, Duration.ofSeconds(10));
			assertThat(read.statusCode()).isEqualTo(200);
			assertThat(read.body()).isEqualTo("Ada");
			assertThat(Duration.ofNanos(System.nanoTime() - hang)).as("a fresh read answered after the hang")
				.isLessThan(ANSWERS_WITHIN);
			for (CompletableFuture<HttpResponse<String>> call : priced) {
				assertThat(call.get(10, TimeUnit.SECONDS).statusCode()).as("an interrupted priced call").isEqualTo(502);
			}
			// One line for the episode: the first request interrupted (a health check
			// that waited for a connection as long may come first).
			app.awaitLog("safe-defaults: interrupted the thread of a request past "
					+ "safe-defaults.stuck-requests.interrupt-after (3s) waiting on ", Duration.ofSeconds(10));
			app.awaitLog("safe-defaults: no request runs longer than 3s any more", ANSWERS_WITHIN);
			assertThat(app.feature("stuck-requests").path("reason").asString())
				.contains("freed by interrupting their thread past safe-defaults.stuck-requests.interrupt-after (3s): ")
				.contains("2 requests waiting on HTTP response: " + hostAndPort + " (JDK HttpClient via RestClient)");
			// Apache HttpClient 5's classic client reads its socket on the request's
			// platform thread: an interrupt cannot end that.
			CompletableFuture<HttpResponse<String>> apache = call(app, "/notes/" + id + "/priced-apache", callers);
			await("the Apache client's wait named as one an interrupt cannot end").atMost(ANSWERS_WITHIN)
				.until(() -> notEndable(app) != null);
			JsonNode finding = notEndable(app);
			assertThat(finding.path("subject").asString()).startsWith("HTTP response: " + hostAndPort
					+ " (Apache HttpClient 5 via RestClient) at " + "com.example.consumer.NoteController.priced");
			assertThat(finding.path("message").asString())
				.contains("1 of them is past safe-defaults.stuck-requests.interrupt-after (3s) in this wait, which an "
						+ "interrupt cannot end: give that client a read timeout");
			app.awaitLog("which an interrupt cannot end: it is left alone (give that client a read timeout)",
					Duration.ofSeconds(10));
			assertThat(apache).as("the Apache call, never interrupted").isNotDone();
			// Once the pricing service answers, the service answers as before. It
			// answers 503, which Apache's default retry strategy sends again a second
			// later, on a new connection: answered too.
			await("the Apache call answered").atMost(Duration.ofSeconds(60)).until(() -> {
				pricing.answerEveryCall();
				return apache.isDone();
			});
			assertThat(apache.get().statusCode()).isEqualTo(502);
			assertThat(app.get("/notes/" + id, Duration.ofSeconds(10)).body()).as("a read once the downstream answers")
				.isEqualTo("Ada");
			assertThat(app.get("/actuator/health", HEALTH_ANSWER).statusCode()).isEqualTo(200);
		}
		finally {
			callers.shutdownNow();
		}
	}

	@Test
	void onVirtualThreadsApacheHttpClientsSocketReadsAreInterruptedAndTheServiceAnswers() throws Exception {
		ConsumerAppsIT.requirePostgreSql();
		assumeFalse(Boolean.getBoolean("jdk25.skip") || System.getProperty("jdk25.java") == null,
				"no JDK 25 found for the virtual threads' run");
		ExecutorService callers = Executors.newFixedThreadPool(POOL_SIZE);
		try (SilentDownstream pricing = new SilentDownstream();
				ConsumerApp app = start(System.getProperty("jdk25.java"), pricing)) {
			String hostAndPort = URI.create(pricing.url()).getAuthority();
			app.awaitLog("deferred checks done", Duration.ofSeconds(60));
			String id = app.post("/notes", "Ada").body();
			List<CompletableFuture<HttpResponse<String>>> priced = hang(app, pricing, "/notes/" + id + "/priced-apache",
					callers);
			long hang = System.nanoTime();
			Duration healthAnswered = firstHealthAnswer(app, hang);
			System.out.printf("OpenInViewDeadlineIT (JDK 25 virtual threads, Apache HttpClient 5): health answered "
					+ "%d ms after the hang (deadline %ds)%n", healthAnswered.toMillis(), DEADLINE.toSeconds());
			assertThat(healthAnswered).as("health answered after the hang; log:\n%s", app.log())
				.isLessThan(ANSWERS_WITHIN);
			assertThat(app.get("/notes/" + id, Duration.ofSeconds(10)).body()).isEqualTo("Ada");
			assertThat(Duration.ofNanos(System.nanoTime() - hang)).as("a fresh read answered after the hang")
				.isLessThan(ANSWERS_WITHIN);
			// The socket read fails (SocketException: Closed by interrupt); Apache's
			// default retry sends the GET again, and its pool's lease, the interrupt
			// still
			// set, fails with a CancellationException, which RestClient does not wrap:
			// the
			// handler's catch of RestClientException (502) does not see it, a 500 does.
			for (CompletableFuture<HttpResponse<String>> call : priced) {
				assertThat(call.get(10, TimeUnit.SECONDS).statusCode()).as("an interrupted priced call").isIn(500, 502);
			}
			app.awaitLog("safe-defaults: no request runs longer than 3s any more", ANSWERS_WITHIN);
			assertThat(app.feature("stuck-requests").path("reason").asString())
				.contains("freed by interrupting their thread past safe-defaults.stuck-requests.interrupt-after (3s): ")
				.contains("2 requests waiting on HTTP response: " + hostAndPort
						+ " (Apache HttpClient 5 via RestClient)");
			pricing.answerEveryCall();
			assertThat(app.get("/notes/" + id, Duration.ofSeconds(10)).body()).as("a read once the downstream answers")
				.isEqualTo("Ada");
		}
		finally {
			callers.shutdownNow();
		}
	}

	private static ConsumerApp start(String java, SilentDownstream pricing) {
		List<String> args = new ArrayList<>(List.of("--spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test",
				"--spring.datasource.hikari.maximum-pool-size=" + POOL_SIZE,
				"--spring.datasource.hikari.connection-timeout=" + Duration.ofSeconds(120).toMillis(),
				"--safe-defaults.stuck-requests.interrupt-after=" + DEADLINE.toSeconds() + "s",
				"--pricing.url=" + pricing.url()));
		if (java == null) {
			return ConsumerApp.start(PROJECT, args.toArray(String[]::new));
		}
		args.add("--spring.threads.virtual.enabled=true");
		return ConsumerApp.startOn(java, PROJECT, args.toArray(String[]::new));
	}

	/**
	 * Calls that each take a connection (open-in-view) and then wait on the pricing
	 * service.
	 */
	private static List<CompletableFuture<HttpResponse<String>>> hang(ConsumerApp app, SilentDownstream pricing,
			String path, ExecutorService callers) {
		List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
		for (int i = 0; i < POOL_SIZE; i++) {
			calls.add(call(app, path, callers));
		}
		await("every call held by the pricing service").atMost(Duration.ofSeconds(60))
			.until(() -> pricing.accepted() >= POOL_SIZE || calls.stream().anyMatch(CompletableFuture::isDone));
		assertThat(calls).as("calls answered while the pricing service is silent; log:\n%s", app.log())
			.noneMatch(CompletableFuture::isDone);
		return calls;
	}

	/**
	 * Asks {@code /actuator/health} again and again, each time waiting 2 s at most, until
	 * it answers.
	 * @return the time from the hang to its first answer
	 */
	private static Duration firstHealthAnswer(ConsumerApp app, long hang) {
		long limit = hang + ANSWERS_WITHIN.plusSeconds(20).toNanos();
		while (System.nanoTime() < limit) {
			try {
				app.get("/actuator/health", HEALTH_ANSWER);
				return Duration.ofNanos(System.nanoTime() - hang);
			}
			catch (UncheckedIOException ex) {
				// Not within 2 s: ask again.
			}
		}
		return Duration.ofNanos(System.nanoTime() - hang);
	}

	private static CompletableFuture<HttpResponse<String>> call(ConsumerApp app, String path, ExecutorService callers) {
		return CompletableFuture.supplyAsync(() -> app.get(path, CALL_TIMEOUT), callers);
	}

	private static JsonNode notEndable(ConsumerApp app) {
		for (JsonNode finding : app.getJson("/actuator/health/safe-defaults")
			.path("components")
			.path("safeDefaults")
			.path("details")
			.path("findings")) {
			if ("stuck-requests.waiting".equals(finding.path("id").asString())
					&& finding.path("message").asString().contains("which an interrupt cannot end")) {
				return finding;
			}
		}
		return null;
	}

}
