package dev.safedefaults.logging.logback;

import java.util.Map;

import ch.qos.logback.classic.PatternLayout;
import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Makes {@code %throttledEx} a Logback conversion word before Boot configures Logback,
 * and, when Logback is Boot's logging system, Boot's default exception rendering, as on
 * Log4j2 (incident 6).
 * <p>
 * The word is put in Logback's {@code PatternLayout.DEFAULT_CONVERTER_SUPPLIER_MAP}, the
 * map every pattern layout of the JVM starts from: so Boot's own Logback configuration
 * ({@code ${LOG_EXCEPTION_CONVERSION_WORD:-%wEx}}, from
 * {@code logging.exception-conversion-word}) and an application's
 * {@code logback-spring.xml} both find it, whether or not they include Boot's
 * {@code defaults.xml}. Not the context's rule registry: Boot resets the context, and
 * that registry with it, before it loads a configuration. A word the application has
 * registered itself is kept. Only a {@code logback.xml} that Logback reads on its own,
 * before Spring starts, misses it; Boot reads that file again once the word is there, and
 * a {@code <conversionRule>} of the application's covers it too.
 * <p>
 * The default: {@code logging.exception-conversion-word=%throttledEx} in the same
 * last-place property source as the Log4j2 one
 * ({@value StackTraceThrottling#PROPERTY_SOURCE_NAME}), so any value of the application's
 * own wins; only when Logback runs ({@link LogbackLoggingSystemChoice#isRunning}) and
 * {@code safe-defaults.enabled}, {@code safe-defaults.logging.enabled} and
 * {@code safe-defaults.logging.stack-traces.enabled} are not false.
 */
public class ThrottledThrowableConverterRegistration implements EnvironmentPostProcessor, Ordered {

	/** What Boot's Logback factory looks for. */
	private static final String LOGBACK_CLASSIC = "ch.qos.logback.classic.LoggerContext";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		ClassLoader classLoader = application.getClassLoader();
		if (!ClassUtils.isPresent(LOGBACK_CLASSIC, classLoader)) {
			return;
		}
		LogbackWords.register();
		if (isEnabled(environment) && LogbackLoggingSystemChoice.isRunning(classLoader)
				&& !environment.getPropertySources().contains(StackTraceThrottling.PROPERTY_SOURCE_NAME)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(StackTraceThrottling.PROPERTY_SOURCE_NAME,
						Map.of(StackTraceThrottling.EXCEPTION_CONVERSION_WORD, StackTraceThrottling.CONVERSION_WORD)));
		}
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

	/** The Logback side, loaded only when Logback is on the class path. */
	static final class LogbackWords {

		private LogbackWords() {
		}

		static void register() {
			synchronized (PatternLayout.DEFAULT_CONVERTER_SUPPLIER_MAP) {
				for (String word : ThrottledThrowableConverter.CONVERSION_WORDS) {
					PatternLayout.DEFAULT_CONVERTER_SUPPLIER_MAP.putIfAbsent(word, ThrottledThrowableConverter::new);
				}
			}
		}

	}

}
