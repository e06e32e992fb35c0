package dev.safedefaults.system;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app, started as a real process with its default settings.
 */
class SampleAppSystemIT {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static SampleAppProcess app;

	@BeforeAll
	static void start() {
		app = SampleAppProcess.start("default", List.of(), List.of());
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private static JsonNode getJson(String path) {
		HttpResponse<String> response = app.get(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	@Test
	void healthIsUp() {
		assertThat(getJson("/actuator/health").path("status").asString()).isEqualTo("UP");
	}

	@Test
	void safeDefaultsHealthGroupShowsTheFindingsOutOfTheBox() {
		JsonNode group = getJson("/actuator/health/safe-defaults");
		assertThat(group.path("status").asString()).isEqualTo("UP");
		assertThat(group.path("components").propertyNames()).containsExactly("safeDefaults");
		JsonNode contributor = group.path("components").path("safeDefaults");
		assertThat(contributor.path("status").asString()).isEqualTo("UP");
		JsonNode details = contributor.path("details");
		assertThat(details.path("findings").isArray()).as("findings array in %s", details).isTrue();
		assertThat(details.path("warnings").isIntegralNumber()).isTrue();
		assertThat(details.path("infos").isIntegralNumber()).isTrue();
		for (JsonNode finding : details.path("findings")) {
			assertThat(finding.propertyNames()).containsExactly("id", "severity", "subject", "message", "fix");
		}
	}

	@Test
	void theSafeDefaultsGroupStaysOutOfTheProbes() {
		JsonNode groups = getJson("/actuator/health").path("groups");
		assertThat(groups.valueStream().map(JsonNode::asString)).contains("safe-defaults");
		assertThat(app.get("/actuator/health/liveness").body()).doesNotContain("safeDefaults");
		assertThat(app.get("/actuator/health/readiness").body()).doesNotContain("safeDefaults");
	}

	@Test
	void safeDefaultsEndpointListsFeaturesAndFindings() {
		JsonNode report = getJson("/actuator/safedefaults");
		assertThat(report.path("features").isArray()).isTrue();
		assertThat(report.path("findings").isArray()).isTrue();
		assertThat(report.path("checks").path("enabled").asBoolean()).isTrue();
		// Deferred checks are listed too, with their status.
		assertThat(report.path("checks").path("runs").valueStream()
			.filter((run) -> run.path("name").asString().equals("jdbc.prepared-stmt-budget")))
			.singleElement()
			.satisfies((run) -> {
				assertThat(run.path("deferred").asBoolean()).isTrue();
				assertThat(run.path("status").asString()).isIn("RUNNING", "DONE");
			});
	}

	@Test
	void theStarterSaysInOneLineWhatItApplied() throws InterruptedException {
		assertThat(app.log()).containsPattern("safe-defaults: applied [^\\n]*logging")
			.containsPattern("safe-defaults: applied [^\\n]*feign\\(\\d+ clients?\\)")
			.containsPattern("safe-defaults: applied [^\\n]*jdbc\\(HikariPool-1\\)")
			// runtime is opt-in; restclient has no RestClient library in the sample app
			.containsPattern("safe-defaults: applied [^\\n]*; off: [^;\\n]*runtime[^\\n]*; \\d+ checks, 0 findings");
		// The deferred checks (database queries) may still be running when the app is ready.
		String done = "safe-defaults: \\d+ deferred checks? done \\([^)]*jdbc.prepared-stmt-budget[^)]*\\), 0 findings";
		long deadline = System.nanoTime() + 30_000_000_000L;
		while (!java.util.regex.Pattern.compile(done).matcher(app.log()).find() && System.nanoTime() < deadline) {
			Thread.sleep(200);
		}
		assertThat(app.log()).containsPattern(done);
	}

	@Test
	void theDefaultSampleHasNoFindingAndItsFeaturesAreApplied() {
		JsonNode report = getJson("/actuator/safedefaults");
		assertThat(report.path("findings")).as("findings of the default sample: %s", report.path("findings")).isEmpty();
		JsonNode logging = feature(report, "logging");
		assertThat(logging.path("enabled").asBoolean()).as("%s", logging).isTrue();
		assertThat(logging.path("appliedTo").toString()).contains("all loggers asynchronous");
		assertThat(feature(report, "config-cache").path("enabled").asBoolean()).isTrue();
		assertThat(feature(report, "feign").path("enabled").asBoolean()).isTrue();
		assertThat(feature(report, "jdbc").path("enabled").asBoolean()).isTrue();
	}

	@Test
	void loggingMetricsArePublished() {
		assertThat(getJson("/actuator/metrics/safedefaults.logging.discarded").path("measurements").isArray()).isTrue();
		assertThat(getJson("/actuator/metrics/safedefaults.logging.ring-buffer.remaining").path("measurements")
			.path(0)
			.path("value")
			.asDouble()).isPositive();
	}

	private static JsonNode feature(JsonNode report, String name) {
		for (JsonNode feature : report.path("features")) {
			if (name.equals(feature.path("feature").asString())) {
				return feature;
			}
		}
		throw new AssertionError("No feature " + name + " in " + report.path("features"));
	}

	@Test
	void findingsGaugeIsPublished() {
		JsonNode metric = getJson("/actuator/metrics/safedefaults.findings");
		assertThat(metric.path("availableTags").findValues("tag").stream().map(JsonNode::asString))
			.contains("severity");
	}

	@Test
	void ordersAreServedFromTheEmbeddedDatabase() {
		JsonNode order = getJson("/api/orders/1");
		assertThat(order.path("id").asLong()).isEqualTo(1);
		assertThat(order.path("customer").asString()).isEqualTo("ada");
		assertThat(app.get("/api/orders/999").statusCode()).isEqualTo(404);
	}

	@Test
	void anErrorStormPrintsTheFirstTracesInFullAndOneLineForTheRepeats() {
		for (int i = 0; i < 6; i++) {
			assertThat(app.get("/api/orders/2?fail=true").statusCode()).isEqualTo(502);
		}
		org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
			String log = app.log();
			assertThat(log.split("Pricing failed for order 2", -1)).hasSize(7);
			assertThat(log).contains("stack trace elided: seen");
		});
	}

	@Test
	void startupLogSaysWhereToLook() {
		assertThat(app.log()).contains("/actuator/health/safe-defaults");
	}

}
