package dev.safedefaults.system;

import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged sample app started with the starter switched off, and with a bad property.
 */
class SampleAppStartupOptionsIT {

	/**
	 * Log4j's async logger thread, as the kernel names it
	 * ({@code Log4j2-TF-1-AsyncLogger[...]}, cut).
	 */
	private static final String ASYNC_LOGGER_THREAD = "Log4j2-TF-\\d+-Asy.*";

	/** The starter's WARN when only the application property switches it off. */
	private static final String JVM_LEVEL_HINT = "safe-defaults.enabled=false in application properties";

	@Test
	void aJvmSystemPropertySwitchesTheWholeStarterOff() {
		try (SampleAppProcess app = SampleAppProcess.start("starter-off", List.of("-Dsafe-defaults.enabled=false"),
				List.of())) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			assertThat(app.get("/actuator/health").statusCode()).isEqualTo(200);
			assertThat(app.get("/actuator/health/safe-defaults").statusCode()).isEqualTo(404);
			assertThat(app.get("/actuator/safedefaults").statusCode()).isEqualTo(404);
			assertThat(app.get("/api/orders/2").statusCode()).isEqualTo(200);
			// What only the JVM-level switch turns off: Log4j started without all-async
			// loggers.
			assertThat(app.threadNames()).as("threads of the app")
				.noneMatch((name) -> name.matches(ASYNC_LOGGER_THREAD));
			assertThat(app.log()).doesNotContain(JVM_LEVEL_HINT);
		}
	}

	/**
	 * The positive control of the test above: the same 404s, but Log4j had started with
	 * the starter's all-async defaults before Spring read the property, and the starter
	 * says so.
	 */
	@Test
	void anApplicationPropertyLeavesTheAsyncLoggersOnAndSaysSo() {
		try (SampleAppProcess app = SampleAppProcess.start("starter-off-by-property", List.of(),
				List.of("--safe-defaults.enabled=false"))) {
			assertThat(app.isAlive()).as("log:\n%s", app.log()).isTrue();
			assertThat(app.get("/actuator/health/safe-defaults").statusCode()).isEqualTo(404);
			assertThat(app.get("/actuator/safedefaults").statusCode()).isEqualTo(404);
			assertThat(app.threadNames()).as("threads of the app")
				.anyMatch((name) -> name.matches(ASYNC_LOGGER_THREAD));
			Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> app.log().contains(JVM_LEVEL_HINT));
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
