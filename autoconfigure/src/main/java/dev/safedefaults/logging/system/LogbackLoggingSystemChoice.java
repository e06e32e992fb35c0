package dev.safedefaults.logging.system;

import org.springframework.boot.logging.LoggingSystem;
import org.springframework.util.ClassUtils;

/**
 * Whether Boot runs Logback as its logging system, decided by name so that this class
 * loads without Logback too.
 */
public final class LogbackLoggingSystemChoice {

	/** The class name of Boot's Logback logging system. */
	public static final String LOGBACK_LOGGING_SYSTEM = "org.springframework.boot.logging.logback.LogbackLoggingSystem";

	private static final String LOGBACK_CLASSIC = "ch.qos.logback.classic.LoggerContext";

	private LogbackLoggingSystemChoice() {
	}

	/**
	 * Whether Boot's logging listener will choose Logback with this class loader: the
	 * same choice it makes (the system property, or the first logging system whose
	 * library is present).
	 * @param classLoader the application's class loader
	 * @return true when the logging system is Logback
	 */
	public static boolean isChosen(ClassLoader classLoader) {
		if (!ClassUtils.isPresent(LOGBACK_CLASSIC, classLoader)) {
			return false;
		}
		try {
			return LoggingSystem.get(classLoader).getClass().getName().equals(LOGBACK_LOGGING_SYSTEM);
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
