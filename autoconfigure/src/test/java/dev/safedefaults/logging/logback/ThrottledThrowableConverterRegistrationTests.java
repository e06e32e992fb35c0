package dev.safedefaults.logging.logback;

import ch.qos.logback.classic.PatternLayout;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code %throttledEx} registered in Logback before Boot configures it, and made Boot's
 * default exception rendering when Logback is the logging system.
 */
@Tag("logback")
class ThrottledThrowableConverterRegistrationTests {

	private final ThrottledThrowableConverterRegistration registration = new ThrottledThrowableConverterRegistration();

	private String exceptionConversionWord(MockEnvironment environment, SpringApplication application) {
		this.registration.postProcessEnvironment(environment, application);
		return environment.getProperty(StackTraceThrottling.EXCEPTION_CONVERSION_WORD);
	}

	@Test
	void theWordsAreRegisteredForEveryPatternLayout() {
		this.registration.postProcessEnvironment(new MockEnvironment(), new SpringApplication());
		assertThat(PatternLayout.DEFAULT_CONVERTER_SUPPLIER_MAP.get("throttledEx").get())
			.isInstanceOf(ThrottledThrowableConverter.class);
		assertThat(PatternLayout.DEFAULT_CONVERTER_SUPPLIER_MAP).containsKeys("throttledThrowable",
				"throttledException");
	}

	@Test
	void onLogbackItBecomesBootsExceptionConversionWord() {
		assertThat(exceptionConversionWord(new MockEnvironment(), new SpringApplication())).isEqualTo("%throttledEx");
	}

	@Test
	void theApplicationsOwnWordWins() {
		MockEnvironment environment = new MockEnvironment().withProperty(StackTraceThrottling.EXCEPTION_CONVERSION_WORD,
				"%ex{short}");
		assertThat(exceptionConversionWord(environment, new SpringApplication())).isEqualTo("%ex{short}");
	}

	@Test
	void notTheDefaultWhenSwitchedOff() {
		for (String off : new String[] { "safe-defaults.enabled", "safe-defaults.logging.enabled",
				"safe-defaults.logging.stack-traces.enabled" }) {
			assertThat(
					exceptionConversionWord(new MockEnvironment().withProperty(off, "false"), new SpringApplication()))
				.as(off)
				.isNull();
		}
	}

	@Test
	void nothingWithoutLogback() {
		SpringApplication application = new SpringApplication();
		application.setResourceLoader(
				new DefaultResourceLoader(new FilteredClassLoader("ch.qos.logback.classic.LoggerContext")));
		assertThat(exceptionConversionWord(new MockEnvironment(), application)).isNull();
	}

}
