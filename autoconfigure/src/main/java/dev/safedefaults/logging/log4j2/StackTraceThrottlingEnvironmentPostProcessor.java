package dev.safedefaults.logging.log4j2;

import dev.safedefaults.logging.stacktrace.ExceptionConversionWordDefault;
import dev.safedefaults.logging.Log4j2LoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Makes {@code %throttledEx} Spring Boot's default exception rendering on Log4j2
 * (incident 6), by {@link ExceptionConversionWordDefault}'s rule. Boot's
 * {@code LoggingApplicationListener} copies the property into the
 * {@code LOG_EXCEPTION_CONVERSION_WORD} system property, which its Log4j2 configurations
 * (and any configuration using {@code ${sys:LOG_EXCEPTION_CONVERSION_WORD}}) put after
 * every message.
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
		if (ExceptionConversionWordDefault.isSwitchedOn(environment)
				&& Log4j2LoggingSystemChoice.isChosen(application.getClassLoader())) {
			ExceptionConversionWordDefault.addTo(environment);
		}
	}

	@Override
	public int getOrder() {
		// After the config data processor, so the application's properties are visible.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
