package dev.safedefaults.logging.stacktraces;

import java.util.Map;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.logging.system.Log4j2LoggingSystemChoice;
import dev.safedefaults.logging.system.LoggingDefaultsSwitch;
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

	/**
	 * Name of the property source holding the default. It comes last: everything else
	 * wins.
	 */
	public static final String PROPERTY_SOURCE_NAME = "safeDefaultsStackTraces";

	/** Spring Boot's property for the exception rendering of its logging patterns. */
	public static final String EXCEPTION_CONVERSION_WORD = "logging.exception-conversion-word";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!isEnabled(environment) || !Log4j2LoggingSystemChoice.isChosen(application.getClassLoader())) {
			return;
		}
		environment.getPropertySources()
			.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME,
					Map.of(EXCEPTION_CONVERSION_WORD, StackTraceThrottling.CONVERSION_WORD)));
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
