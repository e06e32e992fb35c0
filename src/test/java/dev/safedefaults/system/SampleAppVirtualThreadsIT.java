package dev.safedefaults.system;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.testsupport.OnEveryJdk;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 50 on virtual threads, on one start of the packaged sample app on JDK 25 with
 * {@code spring.threads.virtual.enabled=true} and the watch's threshold at 2 s. Two
 * requests to {@code GET /api/orders/{id}/price-serialized}, which calls the hand-built
 * {@code RestClient} while it holds a monitor, on a downstream that accepts and never
 * answers: the first is named as an HTTP wait with the downstream's host and port, the
 * second as a lock wait on the monitor, whose finding says plainly why its holder is not
 * named; both within the threshold plus 10 s, both advising {@code jcmd <pid>
 * Thread.dump_to_file}, and that command, run on the app, lists both requests' stacks
 * (which {@code Thread.print} does not). Both are cleared once the downstream answers.
 * Runs in the JDK 25 execution only (it is {@link OnEveryJdk}); on an older JDK it is
 * skipped with a {@code SKIPPED:} line and starts nothing.
 */
@OnEveryJdk
class SampleAppVirtualThreadsIT {

	/** Kept small for the test; the default is 60 s. */
	private static final Duration THRESHOLD = Duration.ofSeconds(2);

	/** The promise: named within the threshold plus 10 s. */
	private static final Duration NAMED_WITHIN = THRESHOLD.plusSeconds(10);

	private static final String FINDING = "stuck-requests.waiting";

	private static final String ENDPOINT = "GET /api/orders/{id}/price-serialized";

	private static final String CONTROLLER = "dev.safedefaults.sample.orders.SerializedPriceController";

	private static final String VIRTUAL_THREAD_DUMP = "jcmd <pid> Thread.dump_to_file";

	/** The advice for platform threads, whose dump leaves virtual threads out. */
	private static final String PLATFORM_THREAD_DUMP = "a thread dump shows the whole stack: jcmd <pid> Thread.print";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static SilentDownstream silent;

	private static SampleAppProcess app;

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@BeforeAll
	static void start() throws IOException {
		assumeTrue(Runtime.version().feature() >= 25,
				"the virtual-thread proof runs on JDK 25 (the jdk25 " + "execution); this JVM is " + Runtime.version());
		silent = new SilentDownstream();
		app = SampleAppProcess.start("virtual-threads", List.of(),
				List.of("--spring.threads.virtual.enabled=true", "--sample.downstream.url=" + silent.url(),
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
	void aLockWaitSaysWhyItsHolderIsNotNamedAndTheHoldersHttpWaitNamesHostAndPortWithTheDumpThatListsThem()
			throws Exception {
		String hostAndPort = URI.create(silent.url()).getAuthority();
		int acceptedBefore = silent.accepted();
		CompletableFuture<HttpResponse<Void>> holder = get("/api/orders/1/price-serialized");
		await("the first call held by the silent downstream").atMost(Duration.ofSeconds(60))
			.until(() -> silent.accepted() > acceptedBefore || !app.isAlive());
		CompletableFuture<HttpResponse<Void>> waiter = get("/api/orders/2/price-serialized");
		long held = System.nanoTime();
		JsonNode[] named = new JsonNode[2];
		await("the HTTP wait and the lock wait named").atMost(NAMED_WITHIN)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> {
				List<JsonNode> findings = app.findings(FINDING);
				named[0] = SampleAppProcess.withSubject(findings, "HTTP response: ");
				named[1] = SampleAppProcess.withSubject(findings, "lock: ");
				return named[0] != null && named[1] != null;
			});
		System.out.printf(
				"SampleAppVirtualThreadsIT: both waits named %d ms after the first call was held "
						+ "(threshold %d ms, bound %d ms)%n",
				Duration.ofNanos(System.nanoTime() - held).toMillis(), THRESHOLD.toMillis(), NAMED_WITHIN.toMillis());
		JsonNode http = named[0];
		assertThat(http.path("subject").asString())
			.startsWith("HTTP response: " + hostAndPort + " (JDK HttpClient via RestClient) at "
					+ "dev.safedefaults.sample.pricing.HandBuiltRestClientPricing.price");
		assertThat(http.path("message").asString()).contains("(" + ENDPOINT + ")");
		JsonNode lock = named[1];
		System.out.printf("SampleAppVirtualThreadsIT: %s%n  %s%n  %s%n", lock.path("subject").asString(),
				lock.path("message").asString(), lock.path("fix").asString());
		assertThat(lock.path("subject").asString())
			.startsWith("lock: a monitor (synchronized) the JVM does not name for a virtual thread, "
					+ "its holder not known on a virtual thread at " + CONTROLLER + ".priceSerialized");
		assertThat(lock.path("message").asString()).contains("(" + ENDPOINT + ")")
			.contains("its holder is not named: the JVM's thread bean gives no lock information for virtual "
					+ "threads");
		assertThat(lock.path("fix").asString()).contains(VIRTUAL_THREAD_DUMP).doesNotContain(PLATFORM_THREAD_DUMP);
		assertThat(http.path("fix").asString()).doesNotContain(PLATFORM_THREAD_DUMP);
		// The command the advice names works here: it lists both requests on their
		// virtual threads, and the holder the watch cannot name (the thread whose
		// monitorsOwned holds the monitor the other is blocked on).
		List<JsonNode> requests = requestThreads(dumpToFile());
		assertThat(requests).as("the two requests' threads in the dump").hasSize(2);
		assertThat(requests).allMatch((thread) -> thread.path("virtual").asBoolean());
		JsonNode blocked = requests.stream()
			.filter((thread) -> "BLOCKED".equals(thread.path("state").asString()))
			.findFirst()
			.orElseThrow();
		JsonNode owner = requests.stream().filter((thread) -> thread != blocked).findFirst().orElseThrow();
		assertThat(owner.path("monitorsOwned").findValues("locks").toString())
			.contains(blocked.path("blockedOn").asString());
		assertThat(app.threadDump()).as("jcmd <pid> Thread.print").doesNotContain(CONTROLLER);
		// The downstream answers 503: the holder's call fails, the waiter takes the
		// monitor and calls, and is answered as its call arrives; both end with 502 and
		// the findings go.
		silent.answerEveryCall();
		assertThat(holder.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(502);
		await("the waiter's call answered").atMost(Duration.ofSeconds(60)).until(() -> {
			silent.answerEveryCall();
			return waiter.isDone();
		});
		assertThat(waiter.get().statusCode()).isEqualTo(502);
		await("the findings cleared").atMost(NAMED_WITHIN).until(() -> app.findings(FINDING).isEmpty());
	}

	/** The threads of a JSON thread dump whose stack runs the endpoint's handler. */
	private static List<JsonNode> requestThreads(JsonNode dump) {
		List<JsonNode> threads = new ArrayList<>();
		for (JsonNode container : dump.path("threadDump").path("threadContainers")) {
			for (JsonNode thread : container.path("threads")) {
				if (thread.path("stack").toString().contains(CONTROLLER + ".priceSerialized")) {
					threads.add(thread);
				}
			}
		}
		return threads;
	}

	/** {@code jcmd <pid> Thread.dump_to_file -format=json <file>}, as the advice says. */
	private static JsonNode dumpToFile() throws IOException, InterruptedException {
		Path javaCommand = Path.of(ProcessHandle.current().info().command().orElseThrow());
		Path file = Path.of("target", "sample-app-virtual-threads-dump.json").toAbsolutePath();
		Files.deleteIfExists(file);
		Process jcmd = new ProcessBuilder(javaCommand.resolveSibling("jcmd").toString(),
				Long.toString(app.handle().pid()), "Thread.dump_to_file", "-format=json", file.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(jcmd.waitFor(60, TimeUnit.SECONDS)).as("jcmd ended: %s", output).isTrue();
		assertThat(jcmd.exitValue()).as("jcmd: %s", output).isZero();
		return JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
	}

	private CompletableFuture<HttpResponse<Void>> get(String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(app.baseUrl() + path))
			.timeout(Duration.ofMinutes(2))
			.build();
		return this.http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
	}

}
