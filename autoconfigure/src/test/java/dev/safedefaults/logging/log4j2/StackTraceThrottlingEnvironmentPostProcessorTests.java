package dev.safedefaults.logging.log4j2;

import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class StackTraceThrottlingEnvironmentPostProcessorTests {

	private static final String WORD = StackTraceThrottling.EXCEPTION_CONVERSION_WORD;

	private final StackTraceThrottlingEnvironmentPostProcessor postProcessor = new StackTraceThrottlingEnvironmentPostProcessor();

	@Test
	void makesThrottledExBootsExceptionConversionWordInTheLastPropertySource() {
		MockEnvironment environment = new MockEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(WORD)).isEqualTo("%throttledEx");
		PropertySource<?> last = environment.getPropertySources().stream().reduce((first, second) -> second).get();
		assertThat(last.getName()).isEqualTo(StackTraceThrottling.PROPERTY_SOURCE_NAME);
	}

	@Test
	void theApplicationsOwnConversionWordWins() {
		MockEnvironment environment = new MockEnvironment().withProperty(WORD, "%xwEx");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(WORD)).isEqualTo("%xwEx");
	}

	@ParameterizedTest
	@ValueSource(strings = { "safe-defaults.enabled", "safe-defaults.logging.enabled",
			"safe-defaults.logging.stack-traces.enabled" })
	void nothingIsSetWhenSwitchedOff(String property) {
		MockEnvironment environment = new MockEnvironment().withProperty(property, "false");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty(WORD)).isNull();
	}

	@Test
	void nothingIsSetWithoutLog4jCore() {
		MockEnvironment environment = new MockEnvironment();
		SpringApplication application = new SpringApplication();
		application
			.setResourceLoader(new DefaultResourceLoader(new FilteredClassLoader("org.apache.logging.log4j.core")));
		this.postProcessor.postProcessEnvironment(environment, application);
		assertThat(environment.getProperty(WORD)).isNull();
	}

	@Test
	void nothingIsSetWhenLog4j2IsNotBootsLoggingSystem() {
		// Logback would print %PARSER_ERROR for a word it does not know.
		MockEnvironment environment = new MockEnvironment();
		System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		try {
			this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		}
		finally {
			System.clearProperty(LoggingSystem.SYSTEM_PROPERTY);
		}
		assertThat(environment.getProperty(WORD)).isNull();
	}

}
