package dev.safedefaults.logging.stacktrace;

import java.util.Map;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.logging.LoggingDefaultsSwitch;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * {@code %throttledEx} as Spring Boot's default exception rendering (incident 6), one
 * rule for both logging routes: {@value StackTraceThrottling#EXCEPTION_CONVERSION_WORD}
 * set to {@value StackTraceThrottling#CONVERSION_WORD} in a property source that comes
 * last ({@value StackTraceThrottling#PROPERTY_SOURCE_NAME}), so any value of the
 * application's own (properties, YAML, arguments, environment, system properties) wins.
 * Each route's environment post-processor decides whether its logging system runs, then
 * asks {@link #isSwitchedOn} and calls {@link #addTo}.
 */
public final class ExceptionConversionWordDefault {

	/**
	 * The switch, read before the context exists (bound later with the other
	 * {@code safe-defaults.logging.stack-traces.*} properties).
	 */
	public static final String ENABLED_PROPERTY = "safe-defaults.logging.stack-traces.enabled";

	private ExceptionConversionWordDefault() {
	}

	/**
	 * Whether {@code safe-defaults.enabled}, {@code safe-defaults.logging.enabled} and
	 * {@value #ENABLED_PROPERTY} are all on, wherever the application sets them.
	 * @param environment the environment, with the application's configuration loaded
	 * @return true unless one of the three is false
	 */
	public static boolean isSwitchedOn(ConfigurableEnvironment environment) {
		EarlyPropertyBinder binder = EarlyPropertyBinder.of(environment);
		return LoggingDefaultsSwitch.isOn(binder) && binder.isOn(ENABLED_PROPERTY);
	}

	/**
	 * Adds the last-place property source, unless it is there already.
	 * @param environment the environment
	 */
	public static void addTo(ConfigurableEnvironment environment) {
		if (!environment.getPropertySources().contains(StackTraceThrottling.PROPERTY_SOURCE_NAME)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(StackTraceThrottling.PROPERTY_SOURCE_NAME,
						Map.of(StackTraceThrottling.EXCEPTION_CONVERSION_WORD, StackTraceThrottling.CONVERSION_WORD)));
		}
	}

}
