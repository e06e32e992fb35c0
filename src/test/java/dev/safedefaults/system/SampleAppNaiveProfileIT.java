package dev.safedefaults.system;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app in its {@code naive} profile (the incidents reproduced in the
 * app's own code and configuration) with the starter on: every trap is reported at
 * {@code /actuator/health/safe-defaults}, and the service still answers.
 */
class SampleAppNaiveProfileIT {

	private static SampleAppProcess app;

	@BeforeAll
	static void start() {
		app = SampleAppProcess.start("naive", List.of(), List.of("--spring.profiles.active=naive"));
		assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private static List<String> findingIds() {
		JsonNode health = JsonMapper.builder().build().readTree(app.get("/actuator/health/safe-defaults").body());
		List<String> ids = new ArrayList<>();
		health.path("components").path("safeDefaults").path("details").path("findings")
			.forEach((finding) -> ids.add(finding.path("id").asString()));
		return ids;
	}

	@Test
	void everyTrapOfTheNaiveProfileIsReported() {
		assertThat(findingIds()).contains("logging.include-location", "logging.location-pattern", "logging.two-queues",
				"jdbc.auto-reconnect", "jdbc.ignored-property", "feign.per-call-converters");
	}

	@Test
	void theServiceStillAnswersEveryRequest() {
		for (int id = 1; id <= 3; id++) {
			assertThat(app.get("/api/orders/" + id).statusCode()).isEqualTo(200);
		}
		assertThat(app.get("/actuator/health").statusCode()).isEqualTo(200);
	}

}
