package dev.safedefaults.system;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app started with the starter switched off, and with a bad property.
 */
class SampleAppStartupOptionsIT {

	@Test
	void aJvmSystemPropertySwitchesTheWholeStarterOff() {
		try (SampleAppProcess app = SampleAppProcess.start("starter-off", List.of("-Dsafe-defaults.enabled=false"),
				List.of())) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			assertThat(app.get("/actuator/health").statusCode()).isEqualTo(200);
			assertThat(app.get("/actuator/health/safe-defaults").statusCode()).isEqualTo(404);
			assertThat(app.get("/actuator/safedefaults").statusCode()).isEqualTo(404);
			assertThat(app.get("/api/orders/2").statusCode()).isEqualTo(200);
		}
	}

	@Test
	void anUnknownFindingIdStopsStartupWithAMessageNamingPropertyValueAndAllowedIds() throws Exception {
		try (SampleAppProcess app = SampleAppProcess.start("bad-property", List.of(),
				List.of("--safe-defaults.checks.disabled=jdbc.no-such-check"))) {
			assertThat(app.awaitExit()).isNotZero();
			assertThat(app.log()).contains("safe-defaults.checks.disabled", "jdbc.no-such-check", "Allowed",
					"checks.failed");
		}
	}

}
