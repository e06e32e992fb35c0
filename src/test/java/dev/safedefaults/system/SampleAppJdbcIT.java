package dev.safedefaults.system;

import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDBC feature in the packaged sample app, on its embedded MariaDB with MySQL
 * Connector/J: the starter's settings reach the pool, and with the feature off the checks
 * report what is missing.
 */
class SampleAppJdbcIT {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static JsonNode getJson(SampleAppProcess app, String path) {
		HttpResponse<String> response = app.get(path);
		assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	private static List<String> jdbcFindingIds(JsonNode report) {
		return report.path("findings")
			.valueStream()
			.map((finding) -> finding.path("id").asString())
			.filter((id) -> id.startsWith("jdbc."))
			.toList();
	}

	@Test
	@ExtendWith(SharedSampleApp.class)
	void thePoolGetsTheStartersSettingsAndRaisesNoJdbcFinding(SampleAppProcess app) {
		assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
		assertThat(app.get("/api/orders/1").statusCode()).isEqualTo(200);
		JsonNode report = getJson(app, "/actuator/safedefaults");
		JsonNode jdbc = SampleAppProcess.feature(report, "jdbc");
		assertThat(jdbc.path("enabled").asBoolean()).isTrue();
		assertThat(jdbc.path("appliedTo").valueStream().map(JsonNode::asString)).singleElement()
			.asString()
			.contains("MySQL Connector/J", "useServerPrepStmts=true", "cachePrepStmts=true",
					"useConfigs=maxPerformance", "enableQueryTimeouts=true");
		assertThat(jdbcFindingIds(report)).isEmpty();
	}

	@Test
	void withTheFeatureOffTheChecksReportWhatIsMissing() {
		try (SampleAppProcess app = SampleAppProcess.start("jdbc-off", List.of(),
				List.of("--safe-defaults.jdbc.enabled=false"))) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			JsonNode report = getJson(app, "/actuator/safedefaults");
			assertThat(SampleAppProcess.feature(report, "jdbc").path("enabled").asBoolean()).isFalse();
			// One cause (the starter is off, the driver's defaults apply), one finding.
			assertThat(jdbcFindingIds(report)).containsExactly("jdbc.server-prep-stmts-off");
			assertThat(app.log()).contains("jdbc.server-prep-stmts-off");
		}
	}

}
