package dev.safedefaults.logging;

import java.util.Map;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

/**
 * Spring Boot's switch for its logging shutdown handler,
 * {@code logging.register-shutdown-hook}, and whether it is the starter that turned it
 * off: the bounded stop (package {@code logging.stop}) turns it off when it takes the
 * stop over, the logging system check reads who did.
 */
public final class LoggingShutdownHookSwitch {

	/** Boot's switch for its logging shutdown handler. */
	public static final String REGISTER_SHUTDOWN_HOOK = "logging.register-shutdown-hook";

	/** Name of the property source that switches Boot's handler off. It comes last. */
	public static final String PROPERTY_SOURCE_NAME = "safeDefaultsLoggingShutdown";

	private LoggingShutdownHookSwitch() {
	}

	/**
	 * Switches Boot's logging shutdown handler off, in a property source that comes last.
	 * @param environment the environment
	 */
	public static void switchOff(ConfigurableEnvironment environment) {
		environment.getPropertySources()
			.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(REGISTER_SHUTDOWN_HOOK, "false")));
	}

	/**
	 * Whether the starter took over the logging stop in this environment.
	 * @param environment the environment
	 * @return whether {@code logging.register-shutdown-hook=false} is the starter's
	 */
	public static boolean ownsTheStop(ConfigurableEnvironment environment) {
		for (PropertySource<?> source : environment.getPropertySources()) {
			// Boot's attached view of all the other sources contains every property: skip
			// it.
			if (!ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)
					&& source.containsProperty(REGISTER_SHUTDOWN_HOOK)) {
				return PROPERTY_SOURCE_NAME.equals(source.getName());
			}
		}
		return false;
	}

}
