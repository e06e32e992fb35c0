package dev.safedefaults.logging.stop;

import java.time.Duration;
import java.util.Map;

import ch.qos.logback.classic.LoggerContext;
import dev.safedefaults.logging.logback.LogbackFixtures;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.LogManager;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a failed start on Logback gets the starter's drain of the wrapped appenders'
 * queues at exit, as {@link FailedStartLogDrainTests} for Log4j2: once per Logback
 * context, and never where the stop is somebody else's. This execution's class path has
 * log4j-core too (the Log4j API's backend): the drain must be Logback's, not Log4j's.
 * Covers {@code LoggingStopRoute} (of the routes listed, the one whose logging system
 * runs: Logback's, though log4j-core is present) and {@code LogbackStopRoute} (the drain
 * registered once per Logback context, which it marks).
 */
@OnEveryJdk
@Tag(LogbackFixtures.TAG)
class LogbackFailedStartLogDrainTests {

	private final SpringApplication application = new SpringApplication();

	private final FailedStartLogDrain drain = new FailedStartLogDrain(this.application, new String[0]);

	private final LoggerContext logback = (LoggerContext) LoggerFactory.getILoggerFactory();

	private final org.apache.logging.log4j.core.LoggerContext log4j = (org.apache.logging.log4j.core.LoggerContext) LogManager
		.getContext(this.application.getClassLoader(), false);

	private @Nullable BoundedLoggingStop before;

	@BeforeEach
	void forgetTheDrain() {
		this.logback.removeObject(FailedStartLogDrain.DRAIN_REGISTERED);
		this.log4j.removeObject(FailedStartLogDrain.DRAIN_REGISTERED);
		this.before = StopRegistration.current();
	}

	@AfterEach
	void takeTheDrainBack() {
		this.logback.removeObject(FailedStartLogDrain.DRAIN_REGISTERED);
		this.log4j.removeObject(FailedStartLogDrain.DRAIN_REGISTERED);
		BootShutdownHandlers.restore(this.before);
	}

	@Test
	void aFailedStartRegistersTheBoundedStopOfTheLogbackContextAndMarksIt() throws Exception {
		this.drain.environmentPrepared(new DefaultBootstrapContext(),
				environment(Map.of("safe-defaults.logging.shutdown-timeout", "7s")));
		this.drain.failed(null, new IllegalStateException("Config data resource does not exist"));
		assertThat(this.logback.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isEqualTo(Boolean.TRUE);
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
		BoundedLoggingStop stop = StopRegistration.current();
		assertThat(stop).isNotNull().isNotSameAs(this.before);
		// The drain's bound is its timeout: the application contexts are not closing.
		assertThat(stop.bound()).isEqualTo(Duration.ofSeconds(7));
		assertThat(BootShutdownHandlers.runnables()).contains(stop);
	}

	@Test
	void aSecondFailedStartOnTheSameLogbackContextRegistersNoSecondDrain() {
		this.drain.failed(null, new IllegalStateException("failed while starting"));
		BoundedLoggingStop first = StopRegistration.current();
		assertThat(first).isNotNull().isNotSameAs(this.before);
		new FailedStartLogDrain(new SpringApplication(), new String[0]).failed(null,
				new IllegalStateException("failed again"));
		assertThat(StopRegistration.current()).isSameAs(first);
		assertThat(this.logback.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isEqualTo(Boolean.TRUE);
	}

	@Test
	void nothingIsRegisteredWhenTheLoggingDefaultsAreOff() {
		for (String switchOff : new String[] { "safe-defaults.enabled", "safe-defaults.logging.enabled" }) {
			this.drain.environmentPrepared(new DefaultBootstrapContext(), environment(Map.of(switchOff, "false")));
			this.drain.failed(null, new IllegalStateException("failed"));
			assertThat(this.logback.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
			assertThat(StopRegistration.current()).isSameAs(this.before);
		}
	}

	@Test
	void anApplicationsOwnRegisterShutdownHookKeepsBootsBehaviour() {
		for (String value : new String[] { "true", "false" }) {
			this.drain.environmentPrepared(new DefaultBootstrapContext(),
					environment(Map.of("logging.register-shutdown-hook", value)));
			this.drain.failed(null, new IllegalStateException("failed"));
			assertThat(this.logback.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
			assertThat(StopRegistration.current()).isSameAs(this.before);
		}
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return environment;
	}

}
