package dev.safedefaults.consumers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.SilentDownstream;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.safedefaults.consumers.ConsumerApp.feature;
import static dev.safedefaults.testsupport.LoggingStopContract.observedStopBound;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The consumer projects, built by invoker:run against the just-built starter exactly as
 * docs/installing.md says, started as processes: each has the starter's health group, its
 * defaults applied, and no finding on its clean setup. The Logback application
 * ({@code boot40-logback}, its own {@code logback-spring.xml} writing one JSON object per
 * line) is built once per way of adding the starter (docs/logging.md, Choosing the
 * logging system).
 * <p>
 * The longest of the consumer test classes, first in line ({@code @Order}): the others,
 * which run beside it (two classes at a time), then share the second thread.
 */
@Slow
@Order(1)
class ConsumerAppsIT {

	private static final String LOGBACK_APP = "boot40-logback";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The smallest {@code safe-defaults.logging.ring-buffer-size} allowed. */
	private static final int SMALLEST_QUEUE = 128;

	/**
	 * The starter's read timeout in the Boot 4.1 project, short to keep the test quick.
	 */
	private static final Duration SHORT_READ_TIMEOUT = Duration.ofSeconds(2);

	/** What a JVM stopped by SIGTERM returns: 128 + 15. */
	private static final int SIGTERM_STATUS = 143;

	private static final Pattern DISCARDED_SO_FAR = Pattern.compile("(\\d+) discarded so far");

	@Test
	void aBoot40ProjectOnTheStarterParent() {
		try (ConsumerApp app = ConsumerApp.start("boot40-parent")) {
			assertStarterApplied(app);
		}
	}

	@Test
	void aBoot40ProjectImportingTheBootBom() {
		try (ConsumerApp app = ConsumerApp.start("boot40-bom")) {
			assertStarterApplied(app);
		}
	}

	@Test
	void aBoot41ProjectWithOpenFeignAndALazyConnectionFetch() throws IOException {
		try (EmbeddedMariaDb db = EmbeddedMariaDb.start("consumer");
				SilentDownstream silent = new SilentDownstream();
				ConsumerApp app = ConsumerApp.start("boot41-parent-openfeign",
						"--spring.datasource.url=" + db.url("mariadb", ""), "--downstream.url=" + silent.url(),
						"--safe-defaults.http-client-timeouts.read=" + SHORT_READ_TIMEOUT.toSeconds() + "s")) {
			JsonNode report = assertStarterApplied(app);
			JsonNode feign = feature(report, "feign");
			assertThat(feign.path("enabled").asBoolean()).as("%s", feign).isTrue();
			assertThat(feign.toString()).contains("greeting");
			// The HTTP service group got the converters the Feign client got, and its
			// calls work.
			JsonNode restclient = feature(report, "restclient");
			assertThat(restclient.path("enabled").asBoolean()).as("%s", restclient).isTrue();
			assertThat(restclient.path("appliedTo").toString()).as("%s", restclient)
				.contains("HTTP service group 'greetings'");
			assertThat(app.get("/call-greetings/Ada").body()).isEqualTo("Hello Ada");
			// connection-fetch=lazy: the DataSource bean is a
			// LazyConnectionDataSourceProxy; the
			// pool behind it still gets the driver defaults.
			JsonNode jdbc = feature(report, "jdbc");
			assertThat(jdbc.path("enabled").asBoolean()).as("%s", jdbc).isTrue();
			assertThat(jdbc.path("appliedTo").toString()).as("%s", jdbc).contains("useServerPrepStmts");
			assertThat(app.log()).as("log")
				.contains("DataSource bean: org.springframework.jdbc.datasource.LazyConnectionDataSourceProxy");
			assertTheGroupGivesUpOnADownstreamThatNeverAnswers(app, silent);
			assertResourceMissesRemembered(app, report);
		}
	}

	/**
	 * Issue 43, on Boot 4.1: a request factory the application gives Boot through
	 * {@code ClientHttpRequestFactoryBuilder.of(supplier)} with its own 1 s read timeout.
	 * A JDK factory (no {@code setConnectTimeout}) starts, and both keep their read
	 * timeout: the call through the group gives up after the application's 1 s, not the
	 * starter's 60 s; the endpoint names the factory as the application's.
	 */
	@ParameterizedTest
	@CsvSource({ "jdk, java.net.http.HttpTimeoutException", "simple, java.net.SocketTimeoutException" })
	void aBoot41ProjectsOwnFactoryFromASupplierStartsAndKeepsItsReadTimeout(String factory, String ended)
			throws IOException {
		Duration own = Duration.ofSeconds(1);
		try (EmbeddedMariaDb db = EmbeddedMariaDb.start("consumer");
				SilentDownstream silent = new SilentDownstream();
				ConsumerApp app = ConsumerApp.start("boot41-parent-openfeign",
						"--spring.datasource.url=" + db.url("mariadb", ""), "--downstream.url=" + silent.url(),
						"--consumer.own-factory=" + factory, "--consumer.own-read-timeout=" + own.toSeconds() + "s")) {
			JsonNode timeouts = app.feature("http-client-timeouts");
			assertThat(timeouts.toString()).as("%s", timeouts)
				.contains("read as the request factory of the application's ClientHttpRequestFactoryBuilder bean 'own");
			Duration bound = own.plusSeconds(5);
			long start = System.nanoTime();
			HttpResponse<String> response = app.get("/call-downstream/1", bound);
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(response.statusCode()).as("GET /call-downstream/1: %s", response.body()).isEqualTo(504);
			assertThat(response.body()).as("what ended the call").isEqualTo(ended);
			assertThat(took).as("time the call through the group took").isBetween(own, bound);
		}
	}

	/**
	 * The group {@code downstream}, on Boot's defaults (no timeout of the application's
	 * own), pointed at a server that accepts the connection and never answers: the call
	 * fails once the starter's read timeout has passed, where Boot alone would wait for
	 * ever (issue 34).
	 */
	private static void assertTheGroupGivesUpOnADownstreamThatNeverAnswers(ConsumerApp app, SilentDownstream silent) {
		JsonNode timeouts = app.feature("http-client-timeouts");
		assertThat(timeouts.path("appliedTo").toString()).as("%s", timeouts)
			.contains("HTTP service group 'downstream': connect 10s (safe-defaults), read "
					+ SHORT_READ_TIMEOUT.toSeconds() + "s (safe-defaults)");
		Duration bound = SHORT_READ_TIMEOUT.plusSeconds(5);
		long start = System.nanoTime();
		HttpResponse<String> response;
		try {
			response = app.get("/call-downstream/1", bound);
		}
		catch (UncheckedIOException ex) {
			throw new AssertionError("GET /call-downstream/1 did not answer within " + bound
					+ ": the call through the group waits on the downstream that never answers", ex);
		}
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		assertThat(response.statusCode()).as("GET /call-downstream/1: %s", response.body()).isEqualTo(504);
		assertThat(response.body()).as("what ended the call").isEqualTo("java.net.http.HttpTimeoutException");
		assertThat(took).as("time the call through the group took").isBetween(SHORT_READ_TIMEOUT, bound);
		assertThat(silent.accepted()).as("connections the downstream accepted").isEqualTo(1);
	}

	@Test
	@ResourceLock(ConsumerApp.POSTGRESQL_NOTES_TABLE)
	void aBoot40JpaProjectOnPostgreSql() {
		requirePostgreSql();
		try (ConsumerApp app = ConsumerApp.start("boot40-postgresql-jpa",
				"--spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test")) {
			assertThat(app.getJson("/actuator/health").path("status").asString()).isEqualTo("UP");
			assertThat(app.getJson("/actuator/health/safe-defaults").path("status").asString()).isEqualTo("UP");
			// The startup line names the pool and what was done with it (issue 23: it
			// said
			// "jdbc(no pool)").
			assertThat(app.log()).as("startup line")
				.containsPattern("safe-defaults: applied .*jdbc\\(HikariPool-1: left alone, jdbc:postgresql is not a "
						+ "MySQL-protocol pool .*the Hikari settings and the sessions' timeouts are checked\\)");
			Long id = Long.valueOf(app.post("/notes", "Ada").body());
			assertThat(app.get("/notes/" + id).body()).as("the entity persisted and read back").isEqualTo("Ada");
			app.awaitLog("deferred checks done", Duration.ofSeconds(60));
			JsonNode report = app.getJson("/actuator/safedefaults");
			assertThat(report.path("findings")).extracting((finding) -> finding.path("id").asString())
				.as("the PostgreSQL findings, and no MySQL-protocol one: %s", report.path("findings"))
				.containsExactlyInAnyOrder("jdbc.no-timeouts", "jdbc.batch-inserts-not-rewritten");
			JsonNode logging = feature(report, "logging");
			assertThat(logging.path("enabled").asBoolean()).as("%s", logging).isTrue();
			assertThat(app.log()).doesNotContain("ERROR");
		}
	}

	/**
	 * The PostgreSQL service the project's machines run: a failure on CI, a skip (with
	 * its {@code SKIPPED:} line) elsewhere, as in the autoconfigure module's tests.
	 */
	static void requirePostgreSql() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", 5432), 2000);
		}
		catch (IOException ex) {
			String missing = "no PostgreSQL at 127.0.0.1:5432 (user postgres, trust authentication, database test): "
					+ ex.getClass().getSimpleName();
			if (Boolean.getBoolean("postgresql.required") || Boolean.parseBoolean(System.getenv("SAFE_DEFAULTS_CI"))) {
				fail(missing + "; required because postgresql.required=true or SAFE_DEFAULTS_CI=true");
			}
			abort(missing + "; skipped here, a failure on CI");
		}
	}

	@Test
	void aLogbackApplicationOnTheKeepLogbackRouteKeepsItsOwnJsonLinesAndRaisesNoFinding() {
		List<JsonNode> lines;
		long logged = 0;
		long bursts = 0;
		long discarded;
		try (ConsumerApp app = ConsumerApp.startJar(LOGBACK_APP, LOGBACK_APP + "-keep-logback",
				"--safe-defaults.logging.ring-buffer-size=" + SMALLEST_QUEUE)) {
			assertThat(app.getJson("/actuator/health").path("status").asString()).isEqualTo("UP");
			JsonNode report = app.getJson("/actuator/safedefaults");
			assertThat(report.path("findings")).as("findings on the keep-Logback route: %s", report.path("findings"))
				.isEmpty();
			// The application's appender, by its name in logback-spring.xml, behind a
			// queue of the size asked for.
			JsonNode logging = feature(report, "logging");
			assertThat(logging.path("enabled").asBoolean()).as("%s", logging).isTrue();
			assertThat(logging.path("appliedTo").toString()).as("%s", logging)
				.contains("Logback: 1 appender(s) [JSON] wrapped behind bounded queues of " + SMALLEST_QUEUE
						+ " events, no caller data")
				.contains("queue full: discard at or below INFO, 0 discarded so far");
			assertThat(app.get("/log?count=3").body()).isEqualTo("logged 3");
			logged += 3;
			// Bursts from several request threads at once, far more INFO events than
			// the queue holds, until the count moves (the first burst does it: the
			// writer of one queue against four callers that only queue).
			discarded = 0;
			while (discarded == 0 && bursts < 10) {
				logged += burst(app, 4, 20_000);
				bursts++;
				discarded = discardedSoFar(feature(app.getJson("/actuator/safedefaults"), "logging"));
			}
			assertThat(discarded).as("INFO events discarded and counted after %s bursts", bursts).isPositive();
			// The stop, with Boot's defaults (30 s phase, the same as shutdown timeout):
			// a hung stop fails here instead of being killed by close().
			long sigterm = System.nanoTime();
			int status = app.stopWithin(observedStopBound(Duration.ofSeconds(30), Duration.ofSeconds(30)));
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			assertThat(status).as("exit status after SIGTERM (stop took %s)", stop).isEqualTo(SIGTERM_STATUS);
			lines = jsonLines(app.log());
		}
		assertThat(lines).as("the application's own lines, in its format")
			.anySatisfy((line) -> assertThat(line.path("message").asString()).isEqualTo("order 2 \"accepted\""))
			.anySatisfy((line) -> assertThat(line.path("logger").asString())
				.isEqualTo("org.springframework.boot.tomcat.TomcatWebServer"))
			.anySatisfy((line) -> assertThat(line.path("message").asString()).startsWith("safe-defaults: applied"));
		assertThat(lines).noneSatisfy((line) -> assertThat(line.path("level").asString()).isEqualTo("ERROR"));
		// WARN is never discarded: one per request, every one written.
		assertThat(lines.stream()
			.filter((line) -> line.path("level").asString().equals("WARN")
					&& line.path("message").asString().startsWith("logged ")))
			.hasSize((int) (1 + 4 * bursts));
		// Nothing lost uncounted: every INFO event logged is written or counted.
		long written = lines.stream().filter((line) -> line.path("message").asString().startsWith("order ")).count();
		assertThat(written + discarded).as("written %s + discarded %s", written, discarded)
			.isGreaterThanOrEqualTo(logged);
		// The stop: the queue was written within the shutdown timeout, so the stop has
		// nothing to count and writes no last line (stderr shares this log: it would
		// not be JSON either).
		assertThat(lines).noneSatisfy(
				(line) -> assertThat(line.path("message").asString()).contains("log events not written at shutdown"));
	}

	/**
	 * Calls {@code /log} from several threads at once.
	 * @return how many INFO events the calls logged
	 */
	private static long burst(ConsumerApp app, int threads, int count) {
		assertThat(app.getConcurrently(threads, "/log?count=" + count, Duration.ofSeconds(60)))
			.containsOnly("logged " + count);
		return (long) threads * count;
	}

	/**
	 * The count of discarded events in the logging feature's status on Logback.
	 * @param logging the status
	 * @return its "N discarded so far"
	 */
	static long discardedSoFar(JsonNode logging) {
		Matcher matcher = DISCARDED_SO_FAR.matcher(logging.path("appliedTo").toString());
		assertThat(matcher.find()).as("the discard count in %s", logging).isTrue();
		return Long.parseLong(matcher.group(1));
	}

	@Test
	void theSameApplicationOnTheLog4j2RouteIsToldItsLogbackConfigurationIsIgnored() {
		try (ConsumerApp app = ConsumerApp.startJar(LOGBACK_APP, LOGBACK_APP + "-log4j2")) {
			JsonNode report = app.getJson("/actuator/safedefaults");
			assertThat(report.path("findings")).as("%s", report.path("findings"))
				.singleElement()
				.satisfies((finding) -> {
					assertThat(finding.path("id").asString()).isEqualTo("logging.logback-config-ignored");
					assertThat(finding.path("subject").asString()).isEqualTo("logback-spring.xml");
				});
			assertThat(feature(report, "logging").path("appliedTo").toString()).contains("all loggers asynchronous");
			assertThat(app.get("/log?count=3").body()).isEqualTo("logged 3");
			app.close();
			// Boot's Log4j2 pattern, not the application's JSON (Log4j2 abbreviates every
			// package of the logger's name).
			assertThat(app.log().lines().filter((line) -> line.contains("order 2 \"accepted\""))).singleElement()
				.satisfies((line) -> assertThat(line).doesNotStartWith("{")
					.contains(" INFO ")
					.contains("c.e.c.ConsumerApplication"));
		}
	}

	@Test
	void withNeitherExclusionAndTheStarterDeclaredFirstTheApplicationDoesNotStart() {
		// SLF4J picks Log4j2's provider (first on the class path), which refuses to run
		// with the log4j-to-slf4j bridge of Boot's Logback starter; the JVM stops at the
		// application's first logger, before Spring (or the starter) runs.
		String log = ConsumerApp.runToExit(LOGBACK_APP, LOGBACK_APP + "-no-exclusion-starter-first");
		assertThat(log).contains("SLF4J(W): Class path contains multiple SLF4J providers.")
			.contains("SLF4J(I): Actual provider is of type [org.apache.logging.slf4j.SLF4JServiceProvider")
			.contains("log4j-slf4j2-impl cannot be present with log4j-to-slf4j")
			.doesNotContain("Started ConsumerApplication");
	}

	@Test
	void withNeitherExclusionAndTheStarterDeclaredLastLogbackRunsAndTheStarterSaysWhy() {
		List<JsonNode> lines;
		try (ConsumerApp app = ConsumerApp.startJar(LOGBACK_APP, LOGBACK_APP + "-no-exclusion-starter-last")) {
			JsonNode report = app.getJson("/actuator/safedefaults");
			assertThat(report.path("findings")).as("%s", report.path("findings"))
				.singleElement()
				.satisfies((finding) -> {
					assertThat(finding.path("id").asString()).isEqualTo("logging.not-log4j2");
					assertThat(finding.path("subject").asString()).isEqualTo("LogbackLoggingSystem");
					assertThat(finding.path("message").asString()).contains("both on the class path");
					assertThat(finding.path("fix").asString()).contains("exclude spring-boot-starter-log4j2");
				});
			app.close();
			String log = app.log();
			assertThat(log).contains("SLF4J(W): Class path contains multiple SLF4J providers.")
				.contains("SLF4J(I): Actual provider is of type [ch.qos.logback.classic.spi.LogbackServiceProvider");
			lines = jsonLines(
					log.lines().filter((line) -> !line.startsWith("SLF4J(")).reduce("", (a, b) -> a + b + "\n"));
		}
		assertThat(lines).anySatisfy((line) -> assertThat(line.path("message").asString())
			.startsWith("logging.not-log4j2 LogbackLoggingSystem: Logback and Log4j2 are both on the class path"));
	}

	/**
	 * Every line of a log written in the Logback application's format: one JSON object
	 * per line (lines the JVM itself prints, {@code WARNING: …}, left out).
	 */
	private static List<JsonNode> jsonLines(String log) {
		List<JsonNode> lines = new ArrayList<>();
		for (String line : log.lines().filter((line) -> !line.isBlank() && !line.startsWith("WARNING: ")).toList()) {
			try {
				JsonNode node = JSON.readTree(line);
				assertThat(node.isObject()).as("a JSON object: %s", line).isTrue();
				assertThat(node.has("time") && node.has("level") && node.has("logger") && node.has("message"))
					.as("the application's fields: %s", line)
					.isTrue();
				lines.add(node);
			}
			catch (JacksonException ex) {
				throw new AssertionError("Not a line of the application's JSON format: " + line, ex);
			}
		}
		assertThat(lines).as("lines in the log").isNotEmpty();
		return lines;
	}

	/**
	 * A Thymeleaf page with a webjar (Boot 4.1, webjars-locator-lite: the resource chain
	 * on), from the fat jar: the misses of the handlers' class-path locations are
	 * remembered, and the page renders what Spring renders without the starter: the
	 * webjar's link versioned by the locator, each link to a page as written, the same on
	 * every render.
	 */
	private static void assertResourceMissesRemembered(ConsumerApp app, JsonNode report) {
		JsonNode misses = feature(report, "resource-misses");
		assertThat(misses.path("enabled").asBoolean()).as("%s", misses).isTrue();
		assertThat(misses.path("appliedTo").toString()).as("%s", misses)
			.contains("/** (5 of 5 locations remembered, 0 asked every time)")
			.contains("/webjars/** (1 of 1 locations remembered");
		assertThat(app.log()).containsPattern("safe-defaults: applied .*resource-misses\\(2 handlers\\)");
		String version = java.util.Objects.requireNonNull(System.getProperty("webjars-bootstrap.version"),
				"webjars-bootstrap.version (set by the build)");
		String first = app.get("/links").body();
		assertThat(first).contains("href=\"/webjars/bootstrap/" + version + "/css/bootstrap.min.css\"")
			.contains("href=\"/owners/1\"")
			.contains("href=\"/owners/2\"")
			.contains("href=\"/owners/find\"");
		assertThat(app.get("/links").body()).as("rendered again, the misses remembered").isEqualTo(first);
		assertThat(app.get("/webjars/bootstrap/" + version + "/css/bootstrap.min.css").statusCode()).isEqualTo(200);
	}

	private static JsonNode assertStarterApplied(ConsumerApp app) {
		assertThat(app.getJson("/actuator/health").path("status").asString()).isEqualTo("UP");
		assertThat(app.getJson("/actuator/health/safe-defaults").path("status").asString()).isEqualTo("UP");
		JsonNode report = app.getJson("/actuator/safedefaults");
		assertThat(report.has("findings")).as("the report shows its findings: %s", report).isTrue();
		assertThat(report.path("findings")).as("findings of a clean consumer: %s", report.path("findings")).isEmpty();
		JsonNode logging = feature(report, "logging");
		assertThat(logging.path("enabled").asBoolean()).as("%s", logging).isTrue();
		assertThat(logging.path("appliedTo").toString()).contains("all loggers asynchronous");
		assertThat(app.log()).doesNotContain("ERROR");
		return report;
	}

}
