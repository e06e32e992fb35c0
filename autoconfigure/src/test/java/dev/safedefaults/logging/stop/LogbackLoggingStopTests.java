package dev.safedefaults.logging.stop;

import java.net.URLClassLoader;
import java.time.Duration;
import java.util.Map;

import dev.safedefaults.logging.LoggingShutdownHookSwitch;
import dev.safedefaults.logging.logback.LogbackFixtures;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.DefaultResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When Logback runs, the starter's bounded stop takes Boot's place as on Log4j2; when
 * Boot chooses Logback but SLF4J is bound elsewhere, Boot keeps its own. Covers
 * {@code LogbackStopRoute}: it runs only when Logback is SLF4J's backend, and registers
 * the stop with its bound.
 */
@OnEveryJdk
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
		assertThat(LoggingShutdownHookSwitch.ownsTheStop(environment)).isTrue();
		BoundedLoggingStop stop = StopRegistration.current();
		assertThat(stop).isNotNull().isNotSameAs(before);
		assertThat(stop.bound()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void whenSlf4jIsNotBoundToLogbackBootKeepsItsOwnStop() throws Exception {
		BoundedLoggingStop before = StopRegistration.current();
		StandardEnvironment environment = new StandardEnvironment();
		try (URLClassLoader classLoader = LogbackFixtures
			.slf4jNotBoundToLogback(LogbackLoggingStopTests.class.getClassLoader())) {
			SpringApplication application = new SpringApplication();
			application.setResourceLoader(new DefaultResourceLoader(classLoader));
			this.postProcessor.postProcessEnvironment(environment, application);
		}
		assertThat(environment.getProperty("logging.register-shutdown-hook")).isNull();
		assertThat(StopRegistration.current()).isSameAs(before);
	}

}
