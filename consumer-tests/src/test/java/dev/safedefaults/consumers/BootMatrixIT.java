package dev.safedefaults.consumers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.safedefaults.testsupport.SilentDownstream;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The support table of docs/installing.md, proven (issue 42): the {@code boot-matrix}
 * application, packaged once per Boot patch of its {@code invoker.properties} (the lowest
 * and the newest of each supported line, and 4.0.3), started with the starter as a user
 * adds it. On each, JSON goes through every client kind the starter gives its converters
 * to, right after the start: 32 concurrent first calls through a Feign client (on Spring
 * Cloud 2025.1.0, whose OpenFeign 5.0.0 built its converters lazily without
 * synchronisation, some of them failed without the starter), one through a client from
 * Boot's {@code RestClient.Builder}, one through an HTTP service group. On Boot 4.0.0 the
 * application did not start with the starter, on 4.0.3 every one of these calls failed.
 */
@Slow
class BootMatrixIT {

	private static final String PROJECT = "boot-matrix";

	/** The patches that must be there whatever the build's own Boot version. */
	private static final List<String> REQUIRED = List.of("4.0.0", "4.0.3", "4.1.0");

	private static final Duration CALLS_BOUND = Duration.ofSeconds(90);

	static Stream<String> versions() {
		Path target = Path.of(System.getProperty("consumers.directory", "target/consumers"), PROJECT, "target");
		List<String> found;
		try (Stream<Path> files = Files.list(target)) {
			found = files.map((file) -> file.getFileName().toString())
				.filter((name) -> name.startsWith(PROJECT + "-") && name.endsWith(".jar"))
				.map((name) -> name.substring(PROJECT.length() + 1, name.length() - ".jar".length()))
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No " + PROJECT + " jars in " + target, ex);
		}
		assertThat(found).as("Boot versions packaged in %s", target)
			.containsAll(REQUIRED)
			.hasSizeGreaterThanOrEqualTo(5);
		return found.stream();
	}

	@ParameterizedTest(name = "Boot {0}")
	@MethodSource("versions")
	void jsonGoesThroughEveryClientKindWithTheStarter(String bootVersion) {
		try (ConsumerApp app = ConsumerApp.startJar(PROJECT, PROJECT + "-" + bootVersion)) {
			JsonNode result = app.getJson("/matrix", CALLS_BOUND);
			assertThat(result.path("boot").asString()).as("Boot version running").isEqualTo(bootVersion);
			JsonNode feign = result.path("feign");
			assertThat(feign.path("failed").asInt(-1)).as("Feign's first calls that failed: %s", feign).isZero();
			assertThat(feign.path("calls").asInt()).isEqualTo(32);
			assertThat(result.path("restClient").asString()).as("the RestClient call").isEqualTo("ok");
			assertThat(result.path("group").asString()).as("the HTTP service group's call").isEqualTo("ok");
			// The starter took part: each client kind reports it on the starter's
			// endpoint.
			JsonNode report = app.getJson("/actuator/safedefaults");
			JsonNode feignStatus = ConsumerApp.feature(report, "feign");
			assertThat(feignStatus.path("enabled").asBoolean()).as("%s", feignStatus).isTrue();
			assertThat(feignStatus.path("appliedTo").toString()).as("%s", feignStatus).contains("echo");
			JsonNode restClientStatus = ConsumerApp.feature(report, "restclient");
			assertThat(restClientStatus.path("enabled").asBoolean()).as("%s", restClientStatus).isTrue();
			// No warning: on Boot 4.0.3 an INFO says the group's client still makes
			// Framework's small default converters (Framework before 7.0.7).
			assertThat(report.path("warnings").asInt(-1)).as("warnings: %s", report.path("findings")).isZero();
			assertThat(app.log()).as("log").doesNotContain("httpclient.shared-converters-incomplete");
		}
	}

	/**
	 * Issue 44 in a consumer build on the newest Boot 4.1 with Apache HttpClient 5 on the
	 * class path: a request held by a client the application built by hand (on Apache
	 * HttpClient 5, which no timeout of the starter reaches) is named in one WARN line,
	 * with the downstream's host and port and the client library, within the threshold
	 * plus 10 s.
	 */
	@Test
	void aRequestHeldByAHandBuiltApacheClientIsNamedOnBoot41() throws Exception {
		String boot41 = System.getProperty("boot-4.1.version", "4.1.2");
		try (SilentDownstream silent = new SilentDownstream();
				ConsumerApp app = ConsumerApp.startJar(PROJECT, PROJECT + "-" + boot41,
						"--downstream.url=" + silent.url(), "--safe-defaults.stuck-requests.threshold=1s")) {
			String hostAndPort = URI.create(silent.url()).getAuthority();
			CompletableFuture<HttpResponse<String>> held = CompletableFuture
				.supplyAsync(() -> app.get("/downstream", Duration.ofSeconds(60)));
			// The threshold plus 10 s, from the call held (the JVM's first call takes a
			// moment more).
			app.awaitLog("stuck-requests.waiting HTTP response: ", Duration.ofSeconds(20));
			assertThat(app.log()).contains(
					"stuck-requests.waiting HTTP response: " + hostAndPort + " (Apache HttpClient 5 via RestClient)");
			assertThat(silent.accepted()).as("connections the downstream accepted").isEqualTo(1);
			// The downstream goes away rather than answering: Apache HttpClient 5 retries
			// a 503 on a new connection, which it would hold again.
			silent.close();
			assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).as("the held call, once the downstream went")
				.isEqualTo(500);
		}
	}

}
