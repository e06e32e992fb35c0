package dev.safedefaults.logging.log4j2;

import java.util.Map;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.logging.Log4j2LoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Makes {@code %throttledEx} Spring Boot's default exception rendering (incident 6): it
 * sets {@code logging.exception-conversion-word} in a property source that comes last, so
 * any value of the application's own (properties, YAML, arguments, environment, system
 * properties) wins. Boot's {@code LoggingApplicationListener} copies the property into
 * the {@code LOG_EXCEPTION_CONVERSION_WORD} system property, which its Log4j2
 * configurations (and any configuration using
 * {@code ${sys:LOG_EXCEPTION_CONVERSION_WORD}}) put after every message.
 * <p>
 * Ordering: post-processors run on {@code ApplicationEnvironmentPreparedEvent} from a
 * listener ordered before the logging listener, which reads the property on the same
 * event; this one runs last among them, after the application's configuration files are
 * loaded, so it sees {@code safe-defaults.enabled=false},
 * {@code safe-defaults.logging.enabled=false} and
 * {@code safe-defaults.logging.stack-traces.enabled=false} wherever they are set.
 * <p>
 * Nothing is set unless Log4j2 is Boot's logging system: Logback does not know the word.
 */
public class StackTraceThrottlingEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!isEnabled(environment) || !Log4j2LoggingSystemChoice.isChosen(application.getClassLoader())) {
			return;
		}
		environment.getPropertySources()
			.addLast(new MapPropertySource(StackTraceThrottling.PROPERTY_SOURCE_NAME,
					Map.of(StackTraceThrottling.EXCEPTION_CONVERSION_WORD, StackTraceThrottling.CONVERSION_WORD)));
	}

	private static boolean isEnabled(ConfigurableEnvironment environment) {
		EarlyPropertyBinder binder = EarlyPropertyBinder.of(environment);
		return LoggingDefaultsSwitch.isOn(binder) && binder.isOn("safe-defaults.logging.stack-traces.enabled");
	}

	@Override
	public int getOrder() {
		// After the config data processor, so the application's properties are visible.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
