package dev.safedefaults.consumers;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The consumer projects, built by invoker:run against the just-built starter exactly as
 * docs/installing.md says, started as processes: each has the starter's health group, its
 * defaults applied, and no finding on its clean setup.
 */
@Slow
class ConsumerAppsIT {

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
	void aBoot41ProjectWithOpenFeignAndALazyConnectionFetch() {
		try (EmbeddedMariaDb db = EmbeddedMariaDb.start("consumer");
				ConsumerApp app = ConsumerApp.start("boot41-parent-openfeign",
						"--spring.datasource.url=" + db.url("mariadb", ""))) {
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
		}
	}

	@Test
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
	private static void requirePostgreSql() {
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

	private static JsonNode feature(JsonNode report, String name) {
		for (JsonNode feature : report.path("features")) {
			if (name.equals(feature.path("feature").asString())) {
				return feature;
			}
		}
		throw new AssertionError("No feature " + name + " in " + report.path("features"));
	}

}
