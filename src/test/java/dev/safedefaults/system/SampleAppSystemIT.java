package dev.safedefaults.system;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.assertj.core.api.InstanceOfAssertFactories;

import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.safedefaults.system.SampleAppProcess.feature;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample app, started as a real process with its default settings, plus the
 * liveness and readiness groups Boot turns on in Kubernetes and health components shown
 * to everyone (so that what each group holds can be read).
 */
@OnEveryJdk
class SampleAppSystemIT {

	private static final JsonMapper json = JsonMapper.builder().build();

	/** The start of a log event's line in Boot's default pattern, with its time. */
	private static final Pattern EVENT_LINE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T(\\d{2}:\\d{2}:\\d{2})\\.\\d+");

	/** The README, from this module's directory. */
	private static final Path README = Path.of("..", "..", "README.md");

	/** A feature's opt-out switch in the README's feature table. */
	private static final Pattern FEATURE_SWITCH = Pattern.compile("`safe-defaults\\.([a-z-]+)\\.enabled");

	private static SampleAppProcess app;

	@BeforeAll
	static void start() {
		app = SampleAppProcess.start("default", List.of(), List.of("--management.endpoint.health.probes.enabled=true",
				"--management.endpoint.health.show-components=always"));
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

	/**
	 * The starter's own group, {@code /actuator/health/safe-defaults}, answers {@code UP}
	 * (with warnings too: {@link SampleAppNaiveProfileIT}), and so does the application's
	 * health.
	 */
	@Test
	void theSafeDefaultsHealthGroupIsUp() {
		JsonNode group = getJson("/actuator/health/safe-defaults");
		assertThat(group.path("status").asString()).as("%s", group).isEqualTo("UP");
		assertThat(group.path("components").path("safeDefaults").path("status").asString()).as("%s", group)
			.isEqualTo("UP");
		assertThat(getJson("/actuator/health").path("status").asString()).isEqualTo("UP");
	}

	/**
	 * The group's details out of the box: the default sample has no finding (the shape of
	 * each finding is asserted on the naive profile's, {@link SampleAppNaiveProfileIT}).
	 */
	@Test
	void safeDefaultsHealthGroupShowsItsDetailsOutOfTheBox() {
		JsonNode group = getJson("/actuator/health/safe-defaults");
		assertThat(group.path("status").asString()).isEqualTo("UP");
		assertThat(group.path("components").propertyNames()).containsExactly("safeDefaults");
		JsonNode contributor = group.path("components").path("safeDefaults");
		assertThat(contributor.path("status").asString()).isEqualTo("UP");
		JsonNode details = contributor.path("details");
		assertThat(details.path("findings").isArray()).as("findings array in %s", details).isTrue();
		assertThat(details.path("findings")).as("findings of the default sample").isEmpty();
		assertThat(details.path("warnings").asLong(-1)).isZero();
		assertThat(details.path("infos").asLong(-1)).isZero();
	}

	/**
	 * Boot's own probe groups hold one member each ({@code livenessState},
	 * {@code readinessState}) and never show components; a liveness or readiness group
	 * defined by properties (as the starter would have to define one to join it) replaces
	 * Boot's and, with components shown to everyone here, lists its members. So the
	 * probes answer exactly {@code {"status":"UP"}} only while they are Boot's own.
	 */
	@Test
	void theSafeDefaultsGroupStaysOutOfTheProbes() {
		JsonNode health = getJson("/actuator/health");
		assertThat(health.path("groups").valueStream().map(JsonNode::asString)).contains("safe-defaults", "liveness",
				"readiness");
		// Components are shown, and the starter's contributor is one of them.
		assertThat(health.path("components").propertyNames()).contains("safeDefaults", "livenessState",
				"readinessState");
		assertThat(getJson("/actuator/health/safe-defaults").path("components").propertyNames())
			.containsExactly("safeDefaults");
		for (String probe : List.of("/actuator/health/liveness", "/actuator/health/readiness")) {
			HttpResponse<String> response = app.get(probe);
			assertThat(response.statusCode()).as("GET %s: %s", probe, response.body()).isEqualTo(200);
			assertThat(json.readTree(response.body()).propertyNames()).as("GET %s: %s", probe, response.body())
				.containsExactly("status");
		}
	}

	/**
	 * Every feature of the README's feature table (its opt-out switches
	 * {@code safe-defaults.<feature>.enabled}) is listed, once, with its status; the
	 * startup checks' switch, {@code safe-defaults.checks.enabled}, is the endpoint's
	 * {@code checks}. The default sample has no finding: that the endpoint lists findings
	 * is proved on the naive profile
	 * ({@link SampleAppNaiveProfileIT#theEndpointListsTheFindingsOfTheNaiveProfile}).
	 */
	@Test
	void safeDefaultsEndpointListsEveryFeatureOfTheReadmeAndTheChecks() throws IOException {
		JsonNode report = getJson("/actuator/safedefaults");
		Set<String> documented = readmeFeatureSwitches();
		assertThat(documented).as("opt-out switches in the README's feature table").contains("checks");
		documented.remove("checks");
		List<String> listed = report.path("features")
			.valueStream()
			.map((feature) -> feature.path("feature").asString())
			.toList();
		assertThat(listed).as("features at /actuator/safedefaults: %s", report.path("features"))
			.containsExactlyInAnyOrderElementsOf(documented);
		for (String name : List.of("logging", "feign", "restclient", "config-cache", "jdbc")) {
			assertThat(feature(report, name).path("enabled").asBoolean()).as("%s", feature(report, name)).isTrue();
			assertThat(feature(report, name).path("appliedTo")).as("%s", feature(report, name)).isNotEmpty();
		}
		JsonNode runtime = feature(report, "runtime");
		assertThat(runtime.path("enabled").asBoolean()).as("%s", runtime).isFalse();
		assertThat(runtime.path("reason").asString()).as("%s", runtime).contains("safe-defaults.runtime.enabled=true");
		assertThat(report.path("findings").isArray()).isTrue();
		assertThat(report.path("checks").path("enabled").asBoolean()).isTrue();
		assertThat(report.path("checks").path("runs")).as("%s", report.path("checks")).isNotEmpty();
		// Deferred checks are listed too, with their status.
		assertThat(report.path("checks")
			.path("runs")
			.valueStream()
			.filter((run) -> run.path("name").asString().equals("jdbc.prepared-stmt-budget"))).singleElement()
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
			// Boot's builder and the HTTP service group "pricing"
			.containsPattern("safe-defaults: applied [^;\\n]*restclient\\(builder, 1 group\\)")
			// runtime is opt-in
			.containsPattern("safe-defaults: applied [^\\n]*; off: [^;\\n]*runtime[^\\n]*; \\d+ checks, 0 findings")
			.doesNotContainPattern("safe-defaults: applied [^\\n]*; off: [^;\\n]*restclient");
		// The deferred checks (database queries) may still be running when the app is
		// ready.
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
		assertThat(feature(report, "restclient").path("enabled").asBoolean()).isTrue();
	}

	/**
	 * The downstream call through the HTTP service group "pricing" (Boot's RestClient):
	 * the group got the starter's shared converters, its calls answer (a 500 downstream
	 * arrives as Framework's exception, so the call did go through the RestClient), and
	 * calling it many times after startup builds no client: no restclient finding.
	 */
	@Test
	void theHttpServiceGroupGotTheSharedConvertersAndItsCallsAnswer() {
		JsonNode restclient = feature(getJson("/actuator/safedefaults"), "restclient");
		assertThat(restclient.path("enabled").asBoolean()).as("%s", restclient).isTrue();
		assertThat(restclient.path("appliedTo").toString()).as("%s", restclient)
			.contains("HTTP service group 'pricing'");
		// More calls than the per-request-build finding's first report (20 builds).
		for (int i = 0; i < 30; i++) {
			JsonNode order = getJson("/api/orders/1?client=http-service");
			assertThat(order.path("id").asLong()).isEqualTo(1);
			assertThat(order.path("customer").asString()).isEqualTo("ada");
			// The downstream answers 10 + the id's length in digits, .50.
			assertThat(order.path("price").decimalValue()).isEqualByComparingTo("11.50");
		}
		assertThat(app.get("/api/orders/3?client=http-service&fail=true").statusCode()).isEqualTo(502);
		org.awaitility.Awaitility.await()
			.atMost(java.time.Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(app.log())
				.containsPattern("Pricing failed for order 3[\\s\\S]{0,300}HttpServerErrorException"));
		assertThat(app.get("/api/orders/1?client=carrier-pigeon").statusCode()).isEqualTo(400);
		JsonNode report = getJson("/actuator/safedefaults");
		assertThat(report.path("findings").toString()).as("findings after the group's calls")
			.doesNotContain("restclient");
		assertThat(app.findingMessages()).isEmpty();
	}

	@Test
	void loggingMetricsArePublished() {
		assertThat(getJson("/actuator/metrics/safedefaults.logging.discarded").path("measurements").isArray()).isTrue();
		assertThat(getJson("/actuator/metrics/safedefaults.logging.ring-buffer.remaining").path("measurements")
			.path(0)
			.path("value")
			.asDouble()).isPositive();
	}

	/**
	 * The features named by the opt-out column of the README's feature table.
	 */
	private static Set<String> readmeFeatureSwitches() throws IOException {
		List<String> lines = Files.readAllLines(README);
		int header = lines.indexOf(lines.stream()
			.filter((line) -> line.startsWith("| Feature | What the starter does |"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No feature table in " + README.toAbsolutePath())));
		Set<String> features = new TreeSet<>();
		for (String row : lines.subList(header + 2, lines.size())) {
			if (!row.startsWith("|")) {
				break;
			}
			String[] cells = row.split("\\|");
			Matcher matcher = FEATURE_SWITCH.matcher(cells[cells.length - 1]);
			while (matcher.find()) {
				features.add(matcher.group(1));
			}
		}
		return features;
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

	/**
	 * Six failures of one kind (a Feign 500 downstream, which no other test of this class
	 * causes): the first three ({@code first-n}) print their whole trace, message and
	 * frames, the next three one line each that says how often the kind was seen and when
	 * its first full trace was printed, and the metric counts exactly those three.
	 */
	@Test
	void anErrorStormPrintsTheFirstThreeTracesInFullAndCountsTheThreeRepeatsItElides() {
		double elidedBefore = elidedStackTraces();
		for (int i = 0; i < 6; i++) {
			assertThat(app.get("/api/orders/2?fail=true").statusCode()).isEqualTo(502);
		}
		await("the six failures' lines").atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(events(app.log(), "Pricing failed for order 2")).hasSize(6)
				.last()
				.asInstanceOf(InstanceOfAssertFactories.LIST)
				.hasSizeGreaterThan(1));
		List<List<String>> events = events(app.log(), "Pricing failed for order 2");
		String firstTime = eventTime(events.get(0).get(0));
		for (List<String> event : events.subList(0, 3)) {
			assertThat(event.get(1)).as("%s", event)
				.startsWith("feign.FeignException$InternalServerError: [500 Internal Server Error]");
			assertThat(event).as("%s", event)
				.filteredOn((line) -> line.startsWith("\tat "))
				.hasSizeGreaterThan(20)
				.anySatisfy((line) -> assertThat(line)
					.startsWith("\tat dev.safedefaults.sample.orders.OrderController.order("));
			assertThat(event).noneMatch((line) -> line.contains("elided"));
		}
		for (int i = 3; i < 6; i++) {
			List<String> event = events.get(i);
			assertThat(event).as("%s", event).hasSize(2);
			assertThat(event.get(1)).as("%s", event)
				.matches("feign\\.FeignException\\$InternalServerError at feign\\.FeignException\\.\\S+ "
						+ "\\(message and stack trace elided: seen " + (i + 1) + " times since " + firstTime
						+ "; first printed at " + firstTime + "\\)");
		}
		assertThat(elidedStackTraces() - elidedBefore).as("safedefaults.logging.stack-traces.elided, moved by")
			.isEqualTo(3.0);
	}

	private double elidedStackTraces() {
		JsonNode metric = getJson("/actuator/metrics/safedefaults.logging.stack-traces.elided");
		return metric.path("measurements").path(0).path("value").asDouble(-1);
	}

	/**
	 * The log events whose line contains the text, each as its lines without the blank
	 * ones: the event's own line first, then what follows up to the next event.
	 */
	private static List<List<String>> events(String log, String text) {
		List<List<String>> events = new ArrayList<>();
		List<String> current = null;
		for (String line : log.split("\n")) {
			if (EVENT_LINE.matcher(line).lookingAt()) {
				current = line.contains(text) ? new ArrayList<>() : null;
				if (current != null) {
					events.add(current);
				}
			}
			if (current != null && !line.isBlank()) {
				current.add(line);
			}
		}
		return events;
	}

	private static String eventTime(String eventLine) {
		Matcher matcher = EVENT_LINE.matcher(eventLine);
		assertThat(matcher.lookingAt()).as(eventLine).isTrue();
		return matcher.group(1);
	}

	@Test
	void startupLogSaysWhereToLook() {
		assertThat(app.log()).contains("/actuator/health/safe-defaults");
	}

}
