package dev.safedefaults.system;

import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.safedefaults.testsupport.OnEveryJdk;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app in its {@code naive} profile (the incidents reproduced in the
 * app's own code and configuration) with the starter on: every trap is reported at
 * {@code /actuator/health/safe-defaults}, under load the runtime detector names the code
 * that throws and prints (incidents 3 and 8), and the service still answers.
 */
@OnEveryJdk
class SampleAppNaiveProfileIT {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** More Feign calls than the 20 converters builds at which the finding is raised. */
	private static final int PER_CALL_CONVERTERS_CALLS = 25;

	private static SampleAppProcess app;

	@BeforeAll
	static void start() {
		// The runtime detector is off by default (it costs CPU per request): switched on
		// as a user
		// who suspects a storm would. A lower rate threshold than the default (1,000/s):
		// a loaded
		// 2-core CI machine may serve fewer than 170 naive requests per second; what is
		// tested is
		// what the findings name.
		app = SampleAppProcess.start("naive", List.of(), List.of("--spring.profiles.active=naive",
				"--safe-defaults.runtime.enabled=true", "--safe-defaults.runtime.exception-storm.per-second=100"));
		assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
		// The naive Feign decoder builds converters per call: that is found from the
		// calls
		// themselves (at 20 builds after startup), never by calling its provider at
		// startup. Traffic through the Feign client first, as a user's would.
		for (int i = 0; i < PER_CALL_CONVERTERS_CALLS; i++) {
			assertThat(app.get("/api/orders/" + (1 + (i % 3)) + "?client=feign").statusCode()).isEqualTo(200);
		}
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private static List<String> findingIds() {
		return new ArrayList<>(app.findingMessages().keySet());
	}

	@Test
	void everyTrapOfTheNaiveProfileIsReported() {
		assertThat(app.findingMessages().get("feign.per-call-converters")).contains("decoder SpringDecoder.decode")
			.contains("FeignHttpMessageConverters built");
		assertThat(findingIds()).contains("logging.include-location", "logging.location-pattern", "logging.two-queues",
				"jdbc.auto-reconnect", "jdbc.ignored-property", "feign.per-call-converters",
				"logging.full-stack-traces");
	}

	@Test
	void everyFindingInTheHealthGroupHasItsFullShape() {
		HttpResponse<String> response = app.get("/actuator/health/safe-defaults");
		assertThat(response.statusCode()).as("GET /actuator/health/safe-defaults: %s", response.body()).isEqualTo(200);
		JsonNode group = JSON.readTree(response.body());
		// Warnings never take the instance out: the group stays UP.
		assertThat(group.path("status").asString()).as("%s", group).isEqualTo("UP");
		JsonNode details = group.path("components").path("safeDefaults").path("details");
		JsonNode findings = details.path("findings");
		assertThat(findings.size()).as("findings of the naive profile: %s", findings).isGreaterThanOrEqualTo(7);
		long warnings = 0;
		long infos = 0;
		for (JsonNode finding : findings) {
			assertThat(finding.propertyNames()).as("%s", finding)
				.containsExactly("id", "severity", "subject", "message", "fix");
			assertThat(finding.path("id").asString()).as("%s", finding).matches("[a-z0-9-]+\\.[a-z0-9.-]+");
			assertThat(finding.path("message").asString()).as("%s", finding).isNotBlank();
			assertThat(finding.path("fix").asString()).as("%s", finding).isNotBlank();
			String severity = finding.path("severity").asString();
			assertThat(severity).as("%s", finding).isIn("WARNING", "INFO");
			warnings += severity.equals("WARNING") ? 1 : 0;
			infos += severity.equals("INFO") ? 1 : 0;
		}
		assertThat(details.path("warnings").asLong(-1)).isEqualTo(warnings).isPositive();
		assertThat(details.path("infos").asLong(-1)).isEqualTo(infos);
	}

	/**
	 * The endpoint {@code /actuator/safedefaults} lists the findings: every trap of the
	 * naive profile, each with its full shape, as the health group does.
	 */
	@Test
	void theEndpointListsTheFindingsOfTheNaiveProfile() {
		HttpResponse<String> response = app.get("/actuator/safedefaults");
		assertThat(response.statusCode()).as("GET /actuator/safedefaults: %s", response.body()).isEqualTo(200);
		JsonNode findings = JSON.readTree(response.body()).path("findings");
		assertThat(findings.valueStream().map((finding) -> finding.path("id").asString()))
			.as("findings at /actuator/safedefaults: %s", findings)
			.contains("logging.include-location", "logging.location-pattern", "logging.two-queues",
					"jdbc.auto-reconnect", "jdbc.ignored-property", "feign.per-call-converters",
					"logging.full-stack-traces");
		for (JsonNode finding : findings) {
			assertThat(finding.propertyNames()).as("%s", finding)
				.containsExactly("id", "severity", "subject", "message", "fix");
			assertThat(finding.path("message").asString()).as("%s", finding).isNotBlank();
		}
		assertThat(findings.valueStream()
			.filter((finding) -> finding.path("id").asString().equals("feign.per-call-converters"))
			.map((finding) -> finding.path("message").asString())).isNotEmpty()
			.allSatisfy((message) -> assertThat(message).contains("FeignHttpMessageConverters built"));
	}

	@Test
	void underLoadTheRuntimeDetectorNamesTheNaiveCode() throws Exception {
		AtomicBoolean loading = new AtomicBoolean(true);
		ExecutorService clients = Executors.newFixedThreadPool(4);
		for (int t = 0; t < 4; t++) {
			int first = t;
			clients.execute(() -> {
				for (int i = first; loading.get(); i++) {
					try {
						app.get("/api/orders/" + (1 + (i % 3)));
					}
					catch (UncheckedIOException ex) {
						// one failed request: keep the load going
					}
				}
			});
		}
		try {
			// Sustained for 5 s, then a window of at most 1 s, then the next reading
			// names the sites.
			Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
				Map<String, String> findings = app.findingMessages();
				assertThat(findings).containsKeys("runtime.exception-storm", "runtime.stderr-stack-traces");
				assertThat(findings.get("runtime.exception-storm")).contains("Top sites: ")
					.contains("NaiveHabits.findField")
					.contains("NaiveHabits.parseLongOrDefault");
				assertThat(findings.get("runtime.stderr-stack-traces")).contains("java.lang.ClassNotFoundException");
			});
		}
		finally {
			loading.set(false);
			clients.shutdown();
			clients.awaitTermination(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * The naive code asks for Boot's {@code RestClient.Builder} and builds a client in
	 * the request handler: under load (past the finding's first report, 20 builders
	 * handed out or clients built) it is reported, naming that code, and its calls still
	 * answer.
	 */
	@Test
	void underLoadTheClientBuiltPerRequestIsReportedWithTheNaiveCaller() throws Exception {
		AtomicBoolean loading = new AtomicBoolean(true);
		AtomicLong answered = new AtomicLong();
		ExecutorService clients = Executors.newFixedThreadPool(4);
		for (int t = 0; t < 4; t++) {
			int first = t;
			clients.execute(() -> {
				for (int i = first; loading.get(); i++) {
					try {
						HttpResponse<String> response = app
							.get("/api/orders/" + (1 + (i % 3)) + "?client=http-service");
						if (response.statusCode() == 200 && response.body().contains("\"price\":")) {
							answered.incrementAndGet();
						}
					}
					catch (UncheckedIOException ex) {
						// one failed request: keep the load going
					}
				}
			});
		}
		try {
			Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
				Map<String, String> findings = app.findingMessages();
				assertThat(findings).containsKey("restclient.per-request-build");
				assertThat(findings.get("restclient.per-request-build")).contains("PerRequestRestClientPricing.price");
			});
		}
		finally {
			loading.set(false);
			clients.shutdown();
			clients.awaitTermination(30, TimeUnit.SECONDS);
		}
		assertThat(answered.get()).as("requests priced through the per-request RestClient").isPositive();
	}

	@Test
	void theServiceStillAnswersEveryRequest() {
		for (int id = 1; id <= 3; id++) {
			assertThat(app.get("/api/orders/" + id).statusCode()).isEqualTo(200);
			assertThat(app.get("/api/orders/" + id + "?client=http-service").statusCode()).isEqualTo(200);
		}
		assertThat(app.get("/actuator/health").statusCode()).isEqualTo(200);
	}

}
