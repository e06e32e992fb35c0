package dev.safedefaults.logging.shutdown;

import java.util.Map;

import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a failed start gets the starter's drain of the log ring at exit (issue 25). The
 * system test {@code SampleAppFailedStartIT} proves that the report then reaches the
 * console.
 */
@OnEveryJdk
class FailedStartLogDrainTests {

	private final SpringApplication application = new SpringApplication();

	private final FailedStartLogDrain drain = new FailedStartLogDrain(this.application, new String[0]);

	private final LoggerContext log4j = (LoggerContext) LogManager.getContext(this.application.getClassLoader(), false);

	@BeforeEach
	@AfterEach
	void forgetTheDrain() {
		this.log4j.removeObject(FailedStartLogDrain.DRAIN_REGISTERED);
	}

	@Test
	void aStartThatFailsBeforeTheStartersStopIsRegisteredGetsTheDrain() {
		// A missing config import, a YAML error: the environment post-processors never
		// ran.
		this.drain.environmentPrepared(new DefaultBootstrapContext(), environment(Map.of()));
		this.drain.failed(null, new IllegalStateException("Config data resource does not exist"));
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isEqualTo(Boolean.TRUE);
	}

	@Test
	void aStartThatFailsBeforeTheEnvironmentExistsGetsTheDrain() {
		this.drain.failed(null, new IllegalStateException("failed while starting"));
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isEqualTo(Boolean.TRUE);
	}

	@Test
	void aSwitchThatIsNotABooleanStillGetsTheDrain() {
		this.drain.environmentPrepared(new DefaultBootstrapContext(),
				environment(Map.of("safe-defaults.logging.enabled", "maybe")));
		this.drain.failed(null, new IllegalStateException("Failed to convert"));
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isEqualTo(Boolean.TRUE);
	}

	@Test
	void whenTheStartersStopIsRegisteredItDrainsAndNothingIsAdded() {
		StandardEnvironment environment = environment(Map.of());
		new LoggingShutdownEnvironmentPostProcessor((destination) -> destination.get())
			.postProcessEnvironment(environment, this.application);
		this.drain.environmentPrepared(new DefaultBootstrapContext(), environment);
		this.drain.failed(null, new IllegalStateException("failed after the post-processors"));
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
	}

	@Test
	void anApplicationsOwnRegisterShutdownHookKeepsBootsBehaviour() {
		for (String value : new String[] { "true", "false" }) {
			this.drain.environmentPrepared(new DefaultBootstrapContext(),
					environment(Map.of("logging.register-shutdown-hook", value)));
			this.drain.failed(null, new IllegalStateException("failed"));
			assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
		}
	}

	@Test
	void nothingIsAddedWhenTheLoggingDefaultsAreOff() {
		for (String switchOff : new String[] { "safe-defaults.enabled", "safe-defaults.logging.enabled" }) {
			this.drain.environmentPrepared(new DefaultBootstrapContext(), environment(Map.of(switchOff, "false")));
			this.drain.failed(null, new IllegalStateException("failed"));
			assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
		}
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return environment;
	}

}
