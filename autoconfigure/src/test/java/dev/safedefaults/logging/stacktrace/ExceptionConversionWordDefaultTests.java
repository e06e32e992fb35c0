package dev.safedefaults.logging.stacktrace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.core.env.PropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule both logging routes apply to make {@code %throttledEx} Boot's default
 * exception rendering (each route's post-processor adds when its logging system runs:
 * {@code StackTraceThrottlingEnvironmentPostProcessorTests},
 * {@code ThrottledThrowableConverterRegistrationTests}).
 */
class ExceptionConversionWordDefaultTests {

	private static final String WORD = StackTraceThrottling.EXCEPTION_CONVERSION_WORD;

	@Test
	void isTheDefaultInTheLastPropertySource() {
		MockEnvironment environment = new MockEnvironment();
		ExceptionConversionWordDefault.addTo(environment);
		assertThat(environment.getProperty(WORD)).isEqualTo("%throttledEx");
		PropertySource<?> last = environment.getPropertySources().stream().reduce((first, second) -> second).get();
		assertThat(last.getName()).isEqualTo(StackTraceThrottling.PROPERTY_SOURCE_NAME);
	}

	@Test
	void anyValueOfTheApplicationsOwnWins() {
		MockEnvironment environment = new MockEnvironment().withProperty(WORD, "%xwEx");
		ExceptionConversionWordDefault.addTo(environment);
		assertThat(environment.getProperty(WORD)).isEqualTo("%xwEx");
	}

	@Test
	void isOnByDefault() {
		assertThat(ExceptionConversionWordDefault.isSwitchedOn(new MockEnvironment())).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "safe-defaults.enabled", "safe-defaults.logging.enabled",
			"safe-defaults.logging.stack-traces.enabled" })
	void eachOfItsThreeSwitchesTurnsItOff(String property) {
		assertThat(ExceptionConversionWordDefault.isSwitchedOn(new MockEnvironment().withProperty(property, "false")))
			.isFalse();
	}

}
