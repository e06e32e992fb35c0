package dev.safedefaults.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Incident 6 end to end (issue 34): the packaged sample app's downstream accepts
 * connections and never answers. {@code GET /api/orders/{id}?client=http-service} calls
 * it through the HTTP service group {@code pricing} (Boot's {@code RestClient} on the JDK
 * {@code HttpClient}, its base URL {@code sample.downstream.url}); under load every
 * request thread ends up waiting inside that client. With the starter's read timeout the
 * threads come back and the app answers an endpoint that calls nothing within the read
 * timeout plus a few seconds of the load stopping; with the feature switched off it does
 * not answer within the same bound, so the default is what makes the difference.
 */
class SampleAppSilentDownstreamIT {

	/** Tomcat's request threads in both runs: few callers take them all. */
	private static final int REQUEST_THREADS = 20;

	/** Concurrent callers: every request thread taken and requests queued behind them. */
	private static final int CALLERS = REQUEST_THREADS + 10;

	/** The read timeout the first run gives the starter, short to keep the test quick. */
	private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

	/** The promise: the app answers within the read timeout plus a few seconds. */
	private static final Duration ANSWER_BOUND = READ_TIMEOUT.plusSeconds(5);

	/**
	 * How long the load goes on once every request thread waits on the downstream: twice
	 * the read timeout, so that with it the threads are cut free and taken again.
	 */
	private static final Duration LOAD_ONCE_ALL_THREADS_WAIT = READ_TIMEOUT.multipliedBy(2);

	/** Each caller's own timeout: a caller gives up, as a load balancer would. */
	private static final Duration CALLER_TIMEOUT = Duration.ofSeconds(10);

	private static final String CALLS_THE_DOWNSTREAM = "/api/orders/1?client=http-service";

	private static final String CALLS_NOTHING = "/actuator/info";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@Test
	void withTheStartersReadTimeoutTheAppAnswersWithinTheReadTimeoutOfTheLoadStopping() throws Exception {
		try (SilentDownstream silent = new SilentDownstream();
				SampleAppProcess app = start("silent-downstream-timeouts", silent,
						"--safe-defaults.http-client-timeouts.read=" + READ_TIMEOUT.toSeconds() + "s")) {
			assertThat(app.log()).containsPattern("safe-defaults: applied [^\\n]*http-client-timeouts\\(10s/2s\\)");
			assertThat(feature(app, "http-client-timeouts").path("appliedTo").valueStream().map(JsonNode::asString))
				.contains("HTTP service group 'pricing': connect 10s (safe-defaults), read 2s (safe-defaults)");
			Map<Integer, Integer> answers;
			try (Load load = new Load(app.baseUrl() + CALLS_THE_DOWNSTREAM)) {
				awaitEveryRequestThreadWaiting(silent, app);
				Thread.sleep(LOAD_ONCE_ALL_THREADS_WAIT.toMillis());
				answers = load.stop();
				Optional<Duration> answered = timeToAnswerCallingNothing(app);
				System.out.printf(
						"SampleAppSilentDownstreamIT: with a %s read timeout %s answered %s after the load stopped%n",
						READ_TIMEOUT, CALLS_NOTHING, answered.map(Duration::toString).orElse("nothing"));
				assertThat(answered)
					.as("time %s took to answer 200 once the load stopped (at most %s)", CALLS_NOTHING, ANSWER_BOUND)
					.isPresent();
			}
			// Under the load, the calls were cut by the read timeout and answered 502.
			assertThat(answers).as("statuses the callers got under the load").containsOnlyKeys(502);
			assertThat(silent.accepted()).as("calls that reached the downstream").isGreaterThan(REQUEST_THREADS);
		}
	}

	@Test
	void withTheTimeoutsSwitchedOffTheAppStillAnswersNothingWithinTheSameBound() throws Exception {
		try (SilentDownstream silent = new SilentDownstream();
				SampleAppProcess app = start("silent-downstream-no-timeouts", silent,
						"--safe-defaults.http-client-timeouts.enabled=false")) {
			try {
				assertThat(app.log())
					.containsPattern("safe-defaults: applied [^\\n]*; off: [^;\\n]*http-client-timeouts");
				assertThat(app.findingMessages()).containsKey("http-clients.no-timeout");
				Map<Integer, Integer> answers;
				try (Load load = new Load(app.baseUrl() + CALLS_THE_DOWNSTREAM)) {
					awaitEveryRequestThreadWaiting(silent, app);
					Thread.sleep(LOAD_ONCE_ALL_THREADS_WAIT.toMillis());
					answers = load.stop();
					assertThat(timeToAnswerCallingNothing(app))
						.as("time %s took to answer 200 once the load stopped, with no read timeout", CALLS_NOTHING)
						.isEmpty();
				}
				assertThat(answers).as("statuses the callers got under the load").isEmpty();
				assertThat(silent.accepted()).as("calls that reached the downstream").isEqualTo(REQUEST_THREADS);
			}
			finally {
				// Its request threads wait for ever: no graceful stop.
				app.kill();
			}
		}
	}

	private static SampleAppProcess start(String name, SilentDownstream silent, String setting) {
		SampleAppProcess app = SampleAppProcess.start(name, List.of(), List
			.of("--sample.downstream.url=" + silent.url(), "--server.tomcat.threads.max=" + REQUEST_THREADS, setting));
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
		return app;
	}

	/**
	 * Every request thread waits inside the client once the downstream has accepted as
	 * many connections: each waiting call holds one.
	 */
	private static void awaitEveryRequestThreadWaiting(SilentDownstream silent, SampleAppProcess app) {
		await("every request thread calling the silent downstream").atMost(Duration.ofSeconds(60))
			.until(() -> silent.accepted() >= REQUEST_THREADS || !app.isAlive());
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
	}

	/**
	 * Calls the endpoint that calls nothing, once, waiting at most {@link #ANSWER_BOUND}.
	 * @return how long it took to answer 200, empty when it did not answer in time
	 */
	private Optional<Duration> timeToAnswerCallingNothing(SampleAppProcess app)
			throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(app.baseUrl() + CALLS_NOTHING))
			.timeout(ANSWER_BOUND)
			.build();
		long start = System.nanoTime();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as("GET %s: %s", CALLS_NOTHING, response.body()).isEqualTo(200);
			return Optional.of(Duration.ofNanos(System.nanoTime() - start));
		}
		catch (HttpTimeoutException ex) {
			return Optional.empty();
		}
	}

	private static JsonNode feature(SampleAppProcess app, String name) {
		HttpResponse<String> response = app.get("/actuator/safedefaults");
		assertThat(response.statusCode()).as("GET /actuator/safedefaults: %s", response.body()).isEqualTo(200);
		return SampleAppProcess.feature(JSON.readTree(response.body()), name);
	}

	/**
	 * {@value #CALLERS} callers, each sending the next call as soon as the last one was
	 * answered or it gave up on it ({@link #CALLER_TIMEOUT}).
	 */
	private final class Load implements AutoCloseable {

		private final ExecutorService callers = Executors.newFixedThreadPool(CALLERS, (runnable) -> {
			Thread thread = new Thread(runnable, "caller");
			thread.setDaemon(true);
			return thread;
		});

		private final AtomicBoolean stopped = new AtomicBoolean();

		private final Map<Integer, Integer> answers = new ConcurrentHashMap<>();

		Load(String url) {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(CALLER_TIMEOUT).build();
			for (int i = 0; i < CALLERS; i++) {
				this.callers.execute(() -> call(request));
			}
		}

		private void call(HttpRequest request) {
			while (!this.stopped.get()) {
				try {
					int status = SampleAppSilentDownstreamIT.this.http
						.send(request, HttpResponse.BodyHandlers.discarding())
						.statusCode();
					if (!this.stopped.get()) {
						this.answers.merge(status, 1, Integer::sum);
					}
				}
				catch (IOException ex) {
					// Gave up on it (CALLER_TIMEOUT): call again.
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

		/**
		 * Stops sending calls; the calls in flight are left to their callers' timeout.
		 * @return the statuses answered so far, and how often
		 */
		Map<Integer, Integer> stop() {
			this.stopped.set(true);
			return Map.copyOf(this.answers);
		}

		@Override
		public void close() throws InterruptedException {
			this.stopped.set(true);
			this.callers.shutdownNow();
			if (!this.callers.awaitTermination(CALLER_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Callers still calling " + CALLER_TIMEOUT + " after the load stopped");
			}
		}

	}

}
