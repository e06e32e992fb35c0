package dev.safedefaults.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 50 end to end, on one start of the packaged sample app with the watch's threshold
 * at 2 s. A {@code Callable} ({@code GET /api/orders/{id}/price-async}) and a
 * {@code DeferredResult} ({@code GET /api/orders/{id}/price-deferred}) whose work calls
 * the hand-built {@code RestClient} on a downstream that accepts and never answers are
 * each named on the health group within the threshold plus 10 s: the {@code Callable}
 * with the downstream's host and port (its work runs on Spring MVC's executor, which the
 * watch sees), the {@code DeferredResult} as an async result at its endpoint (its work
 * runs on the common pool, which it does not); both are cleared once the downstream
 * answers and the requests end. A download ({@code GET /api/orders/export}) read by a
 * client at about 200 KB/s for longer than the threshold is named as a response to a slow
 * client, and never as a lock. Each test prints its timings.
 */
class SampleAppAsyncAndSlowClientIT {

	/** Kept small for the test; the default is 60 s. */
	private static final Duration THRESHOLD = Duration.ofSeconds(2);

	/** The promise: named within the threshold plus 10 s. */
	private static final Duration NAMED_WITHIN = THRESHOLD.plusSeconds(10);

	private static final String FINDING = "stuck-requests.waiting";

	private static final String ASYNC_RESULT = "async result: work on a thread the watch cannot see (a DeferredResult, "
			+ "a CompletableFuture or other asynchronous value) at GET /api/orders/{id}/price-deferred";

	private static final String SLOW_CLIENT = "response to a slow client";

	/** About 200 KB/s: a slow mobile client. */
	private static final int CLIENT_BYTES_PER_SECOND = 200 * 1024;

	/** 32 MB: more than two minutes at that rate, far longer than the test reads. */
	private static final String EXPORT = "/api/orders/export?megabytes=32";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static SilentDownstream silent;

	private static SampleAppProcess app;

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@BeforeAll
	static void start() throws IOException {
		silent = new SilentDownstream();
		app = SampleAppProcess.start("async-and-slow-client", List.of(),
				List.of("--sample.downstream.url=" + silent.url(),
						"--safe-defaults.stuck-requests.threshold=" + THRESHOLD.toSeconds() + "s"));
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
	}

	@AfterAll
	static void stop() throws IOException {
		if (app != null) {
			app.close();
		}
		if (silent != null) {
			silent.close();
		}
	}

	@Test
	void aCallableAndADeferredResultOnASilentDownstreamAreNamedWithinTheThresholdPlus10sUntilTheyEnd()
			throws Exception {
		String hostAndPort = URI.create(silent.url()).getAuthority();
		int acceptedBefore = silent.accepted();
		CompletableFuture<HttpResponse<Void>> callable = get("/api/orders/1/price-async");
		CompletableFuture<HttpResponse<Void>> deferred = get("/api/orders/2/price-deferred");
		await("both calls held by the silent downstream").atMost(Duration.ofSeconds(60))
			.until(() -> silent.accepted() >= acceptedBefore + 2 || !app.isAlive());
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
		long held = System.nanoTime();
		long[] namedAt = new long[2];
		await("the Callable and the DeferredResult named").atMost(NAMED_WITHIN)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> {
				List<JsonNode> findings = app.findings(FINDING);
				if (namedAt[0] == 0 && SampleAppProcess.withSubject(findings, "HTTP response: ") != null) {
					namedAt[0] = System.nanoTime();
				}
				if (namedAt[1] == 0 && SampleAppProcess.withSubject(findings, ASYNC_RESULT) != null) {
					namedAt[1] = System.nanoTime();
				}
				return namedAt[0] != 0 && namedAt[1] != 0;
			});
		System.out.printf(
				"SampleAppAsyncAndSlowClientIT: the Callable named %d ms, the DeferredResult %d ms after the "
						+ "downstream held both calls (threshold %d ms, bound %d ms)%n",
				Duration.ofNanos(namedAt[0] - held).toMillis(), Duration.ofNanos(namedAt[1] - held).toMillis(),
				THRESHOLD.toMillis(), NAMED_WITHIN.toMillis());
		List<JsonNode> findings = app.findings(FINDING);
		JsonNode http = SampleAppProcess.withSubject(findings, "HTTP response: ");
		assertThat(http.path("subject").asString())
			.startsWith("HTTP response: " + hostAndPort + " (JDK HttpClient via RestClient) at "
					+ "dev.safedefaults.sample.pricing.HandBuiltRestClientPricing.price");
		assertThat(http.path("message").asString()).contains("waits for an HTTP response from " + hostAndPort)
			.contains("(GET /api/orders/{id}/price-async)");
		JsonNode async = SampleAppProcess.withSubject(findings, ASYNC_RESULT);
		assertThat(async.path("severity").asString()).isEqualTo("WARNING");
		assertThat(async.path("message").asString()).contains("waits for an asynchronous result")
			.contains("at GET /api/orders/{id}/price-deferred");
		assertThat(findings).as("no lock among %s", findings)
			.noneMatch((finding) -> finding.path("subject").asString().startsWith("lock"));
		// The downstream answers 503: both calls fail, both requests end with 502, the
		// findings go.
		silent.answerEveryCall();
		assertThat(callable.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(502);
		assertThat(deferred.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(502);
		long answered = System.nanoTime();
		await("the findings cleared").atMost(NAMED_WITHIN).until(() -> app.findings(FINDING).isEmpty());
		System.out.printf("SampleAppAsyncAndSlowClientIT: the async findings cleared %d ms after both requests ended%n",
				Duration.ofNanos(System.nanoTime() - answered).toMillis());
		assertThat(gauge()).isZero();
	}

	@Test
	void aDownloadReadSlowlyIsNamedAsASlowClientNeverAsALock() throws Exception {
		URI base = URI.create(app.baseUrl());
		List<String> subjects = new ArrayList<>();
		long named;
		long firstByte;
		try (SlowDownload download = new SlowDownload(base.getHost(), base.getPort(), EXPORT,
				CLIENT_BYTES_PER_SECOND)) {
			await("the download's first bytes").atMost(Duration.ofSeconds(30))
				.until(() -> download.firstByte() != 0 || download.ended());
			firstByte = download.firstByte();
			assertThat(download.head()).as("the download's first bytes").startsWith("HTTP/1.1 200");
			await("the slow download named").atMost(NAMED_WITHIN).pollInterval(Duration.ofMillis(200)).until(() -> {
				for (JsonNode finding : app.findings(FINDING)) {
					String subject = finding.path("subject").asString();
					if (!subjects.contains(subject)) {
						subjects.add(subject);
					}
				}
				return subjects.stream()
					.anyMatch((subject) -> subject.startsWith(SLOW_CLIENT) || subject.startsWith("lock"))
						|| download.ended();
			});
			named = System.nanoTime();
			assertThat(download.ended())
				.as("the download still runs (%d bytes read, failure %s)", download.read(), download.failure())
				.isFalse();
			// Past the first look, still never a lock while the client keeps reading.
			await("no lock while the client keeps reading").during(Duration.ofSeconds(2))
				.atMost(Duration.ofSeconds(10))
				.until(() -> app.findings(FINDING)
					.stream()
					.noneMatch((finding) -> finding.path("subject").asString().startsWith("lock")));
			double seconds = (System.nanoTime() - firstByte) / 1e9;
			System.out.printf(
					"SampleAppAsyncAndSlowClientIT: the slow download named %d ms after its first byte, read at "
							+ "%.0f KB/s (%d KB in %.1f s); subjects seen: %s%n",
					Duration.ofNanos(named - firstByte).toMillis(), download.read() / 1024.0 / seconds,
					download.read() / 1024, seconds, subjects);
			assertThat(subjects).as("never a lock").noneMatch((subject) -> subject.startsWith("lock"));
			assertThat(subjects).as("named as a slow client").anyMatch((subject) -> subject.startsWith(SLOW_CLIENT));
		}
		// The client goes away: Tomcat's write fails, the request ends, the finding goes.
		await("the slow client's finding cleared").atMost(NAMED_WITHIN)
			.until(() -> app.findings(FINDING)
				.stream()
				.noneMatch((finding) -> finding.path("subject").asString().startsWith(SLOW_CLIENT)));
		assertThat(app.log().lines().filter((line) -> line.contains(FINDING + " lock"))).isEmpty();
		assertThat(app.log().lines().filter((line) -> line.contains(FINDING + " " + SLOW_CLIENT)))
			.as("one WARN line for the slow client")
			.hasSize(1);
	}

	private CompletableFuture<HttpResponse<Void>> get(String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(app.baseUrl() + path))
			.timeout(Duration.ofMinutes(2))
			.build();
		return this.http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
	}

	private static double gauge() {
		HttpResponse<String> response = app.get("/actuator/metrics/safedefaults.stuck-requests");
		assertThat(response.statusCode()).as("GET the gauge: %s", response.body()).isEqualTo(200);
		return JSON.readTree(response.body()).path("measurements").get(0).path("value").asDouble();
	}

	/**
	 * A GET on a raw socket with a small receive buffer, its response read on a daemon
	 * thread no faster than the given rate; closing it drops the connection.
	 */
	private static final class SlowDownload implements AutoCloseable {

		private final Socket socket;

		private final Thread reader;

		private final StringBuilder head = new StringBuilder();

		private volatile long read;

		private volatile long firstByte;

		private volatile boolean ended;

		private volatile Exception failure;

		private volatile boolean closing;

		SlowDownload(String host, int port, String path, int bytesPerSecond) throws IOException {
			this.socket = new Socket();
			this.socket.setReceiveBufferSize(64 * 1024);
			this.socket.connect(new InetSocketAddress(host, port), 5_000);
			this.socket.setSoTimeout(10_000);
			OutputStream out = this.socket.getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			this.reader = new Thread(() -> readSlowly(bytesPerSecond), "slow-client");
			this.reader.setDaemon(true);
			this.reader.start();
		}

		private void readSlowly(int bytesPerSecond) {
			byte[] buffer = new byte[4096];
			try {
				InputStream in = this.socket.getInputStream();
				while (!this.closing) {
					int n = in.read(buffer);
					if (n < 0) {
						this.ended = true;
						return;
					}
					if (this.firstByte == 0) {
						synchronized (this.head) {
							this.head.append(new String(buffer, 0, Math.min(n, 64), StandardCharsets.US_ASCII));
						}
						this.firstByte = System.nanoTime();
					}
					this.read += n;
					long due = this.firstByte + this.read * 1_000_000_000L / bytesPerSecond;
					long sleep = due - System.nanoTime();
					if (sleep > 0) {
						TimeUnit.NANOSECONDS.sleep(sleep);
					}
				}
			}
			catch (IOException | InterruptedException ex) {
				if (!this.closing) {
					this.failure = ex;
					this.ended = true;
				}
			}
		}

		long firstByte() {
			return this.firstByte;
		}

		long read() {
			return this.read;
		}

		boolean ended() {
			return this.ended;
		}

		Exception failure() {
			return this.failure;
		}

		String head() {
			synchronized (this.head) {
				return this.head.toString();
			}
		}

		@Override
		public void close() throws IOException, InterruptedException {
			this.closing = true;
			this.socket.close();
			this.reader.join(5_000);
		}

	}

}
