package dev.safedefaults.logging.shutdown;

import java.time.Duration;
import java.util.Map;

import dev.safedefaults.logging.logback.LogbackFixtures;
import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When Boot runs Logback, the starter's bounded stop takes Boot's place as on Log4j2.
 */
@Tag(LogbackFixtures.TAG)
class LogbackLoggingStopTests {

	private final LoggingShutdownEnvironmentPostProcessor postProcessor = new LoggingShutdownEnvironmentPostProcessor(
			(destination) -> new NoOpLog());

	@Test
	void onLogbackTheStartersBoundedStopTakesBootsPlace() {
		BoundedLoggingStop before = StopRegistration.current();
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("safe-defaults.logging.shutdown-timeout", "7s",
					"spring.lifecycle.timeout-per-shutdown-phase", "3s")));
		ConfigurationPropertySources.attach(environment);
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("logging.register-shutdown-hook")).isEqualTo("false");
		assertThat(LoggingShutdownEnvironmentPostProcessor.ownsTheStop(environment)).isTrue();
		BoundedLoggingStop stop = StopRegistration.current();
		assertThat(stop).isNotNull().isNotSameAs(before);
		assertThat(stop.bound()).isEqualTo(Duration.ofSeconds(10));
	}

}
