package dev.safedefaults.logging.logback;

import ch.qos.logback.classic.PatternLayout;
import dev.safedefaults.logging.stacktrace.ExceptionConversionWordDefault;
import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
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
 * The default: {@code logging.exception-conversion-word=%throttledEx} by the same rule as
 * on Log4j2 ({@link ExceptionConversionWordDefault}), so any value of the application's
 * own wins; only when Logback runs ({@link LogbackLoggingSystemChoice#isRunning}).
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
		if (ExceptionConversionWordDefault.isSwitchedOn(environment)
				&& LogbackLoggingSystemChoice.isRunning(classLoader)) {
			ExceptionConversionWordDefault.addTo(environment);
		}
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
