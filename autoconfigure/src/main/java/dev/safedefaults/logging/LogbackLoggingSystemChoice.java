package dev.safedefaults.logging;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.logging.LoggingSystem;
import org.springframework.util.ClassUtils;

/**
 * Whether Logback runs as Boot's logging system: the one decision every part of the
 * starter's Logback route takes (its auto-configurations through
 * {@code @ConditionalOnLogbackLoggingSystem}, the shutdown handler, the drain of a failed
 * start, and the Log4j2 defaults, which stand back). Decided by name so that this class
 * loads without Logback and without SLF4J too.
 */
public final class LogbackLoggingSystemChoice {

	/** The class name of Boot's Logback logging system. */
	public static final String LOGBACK_LOGGING_SYSTEM = "org.springframework.boot.logging.logback.LogbackLoggingSystem";

	/**
	 * Logback's context, which is also SLF4J's logger factory when SLF4J is bound to it.
	 */
	private static final String LOGBACK_CONTEXT = "ch.qos.logback.classic.LoggerContext";

	private LogbackLoggingSystemChoice() {
	}

	/**
	 * Whether Boot's logging listener will choose Logback with this class loader: the
	 * same choice it makes (the system property, or the first logging system whose
	 * library is present). Logback may still not run: see {@link #isRunning}.
	 * @param classLoader the application's class loader
	 * @return true when the logging system is Logback
	 */
	public static boolean isChosen(ClassLoader classLoader) {
		return ClassUtils.isPresent(LOGBACK_CONTEXT, classLoader)
				&& LOGBACK_LOGGING_SYSTEM.equals(bootsLoggingSystem(classLoader));
	}

	/**
	 * Whether a logging system is Boot's Logback one. Logback may run or not (see
	 * {@link #isRunning}); this says only which system Boot started.
	 * @param system the logging system
	 * @return true when it is Boot's Logback one
	 */
	public static boolean is(LoggingSystem system) {
		return system.getClass().getName().equals(LOGBACK_LOGGING_SYSTEM);
	}

	/**
	 * Whether Logback runs: Boot chooses it and SLF4J's logger factory is Logback's
	 * context. Both are needed; Boot's choice alone holds for an application with Logback
	 * on the class path and SLF4J bound elsewhere, whose Logback context is not the one
	 * its lines go through.
	 * @param classLoader the application's class loader
	 * @return true when Logback runs
	 */
	public static boolean isRunning(ClassLoader classLoader) {
		return whyNotRunning(classLoader) == null;
	}

	/**
	 * Why Logback does not run, in words for a condition's outcome.
	 * @param classLoader the application's class loader
	 * @return the reason, or {@code null} when Logback runs
	 */
	public static @Nullable String whyNotRunning(ClassLoader classLoader) {
		if (!ClassUtils.isPresent(LOGBACK_CONTEXT, classLoader)) {
			return "Logback (" + LOGBACK_CONTEXT + ") is not on the class path";
		}
		String system = bootsLoggingSystem(classLoader);
		if (!LOGBACK_LOGGING_SYSTEM.equals(system)) {
			return "Boot's logging system is " + ((system != null) ? system : "not known") + ", not Logback";
		}
		String slf4jFactory = Slf4jBinding.factoryClassName(classLoader);
		if (!LOGBACK_CONTEXT.equals(slf4jFactory)) {
			return "Boot chooses Logback, but SLF4J's logger factory is "
					+ ((slf4jFactory != null) ? slf4jFactory : "not there (no SLF4J)") + ", not Logback's";
		}
		return null;
	}

	/**
	 * The class name of the logging system Boot chooses with this class loader.
	 * @param classLoader the application's class loader
	 * @return its class name, or {@code null} when Boot cannot choose one
	 */
	private static @Nullable String bootsLoggingSystem(ClassLoader classLoader) {
		try {
			return LoggingSystem.get(classLoader).getClass().getName();
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

}
