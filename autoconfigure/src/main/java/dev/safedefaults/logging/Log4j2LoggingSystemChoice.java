package dev.safedefaults.logging;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.logging.LoggingSystem;
import org.springframework.util.ClassUtils;

/**
 * Whether Boot runs Log4j2 as its logging system: what every logging default depends on,
 * decided by name so that this class loads without Log4j too.
 */
public final class Log4j2LoggingSystemChoice {

	/** The class name of Boot's Log4j2 logging system. */
	public static final String LOG4J2_LOGGING_SYSTEM = "org.springframework.boot.logging.log4j2.Log4J2LoggingSystem";

	private static final String LOG4J_CORE = "org.apache.logging.log4j.core.LoggerContext";

	private Log4j2LoggingSystemChoice() {
	}

	/**
	 * Whether Boot's logging listener will choose Log4j2 with this class loader: the same
	 * choice it makes (the system property, or the first logging system whose library is
	 * present and active).
	 * @param classLoader the application's class loader
	 * @return true when the logging system is Log4j2
	 */
	public static boolean isChosen(ClassLoader classLoader) {
		if (!isCorePresent(classLoader)) {
			return false;
		}
		try {
			return is(LoggingSystem.get(classLoader));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Whether Log4j2's core is on the class path: without it Boot cannot choose Log4j2,
	 * and an application running Logback has excluded {@code spring-boot-starter-log4j2}
	 * to keep it.
	 * @param classLoader the application's class loader ({@code null}: the default one)
	 * @return true when Log4j2's core is present
	 */
	public static boolean isCorePresent(@Nullable ClassLoader classLoader) {
		return ClassUtils.isPresent(LOG4J_CORE, classLoader);
	}

	/**
	 * Whether a logging system is Boot's Log4j2 one.
	 * @param system the logging system
	 * @return true when it is Log4j2
	 */
	public static boolean is(LoggingSystem system) {
		return system.getClass().getName().equals(LOG4J2_LOGGING_SYSTEM);
	}

}
