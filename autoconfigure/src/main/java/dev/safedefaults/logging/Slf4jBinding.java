package dev.safedefaults.logging;

import org.jspecify.annotations.Nullable;

/**
 * What SLF4J is bound to, read by reflection: SLF4J may be absent, and the starter does
 * not depend on it.
 */
final class Slf4jBinding {

	private Slf4jBinding() {
	}

	/**
	 * The class name of SLF4J's logger factory, as the class loader sees SLF4J.
	 * @param classLoader the application's class loader
	 * @return the factory's class name, or {@code null} without SLF4J
	 */
	static @Nullable String factoryClassName(ClassLoader classLoader) {
		try {
			Class<?> loggerFactory = Class.forName("org.slf4j.LoggerFactory", true, classLoader);
			Object factory = loggerFactory.getMethod("getILoggerFactory").invoke(null);
			return (factory != null) ? factory.getClass().getName() : null;
		}
		catch (ReflectiveOperationException | LinkageError ex) {
			return null;
		}
	}

}
