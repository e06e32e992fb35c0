package dev.safedefaults.consumers;

import dev.safedefaults.testsupport.EmbeddedMariaDb;
import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

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
