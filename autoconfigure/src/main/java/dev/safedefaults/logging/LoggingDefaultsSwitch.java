package dev.safedefaults.logging;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.SafeDefaultsProperties;

/**
 * The switch of the logging defaults, {@value #ENABLED_PROPERTY}: one constant for the
 * conditions, the Log4j property source and the post-processors that read it before the
 * context exists, and one reading of both switches it depends on.
 */
public final class LoggingDefaultsSwitch {

	/**
	 * The logging defaults' own switch (declared in additional configuration metadata).
	 */
	public static final String ENABLED_PROPERTY = "safe-defaults.logging.enabled";

	private LoggingDefaultsSwitch() {
	}

	/**
	 * Whether the starter and its logging defaults are both switched on.
	 * @param binder the early binder of the environment
	 * @return true unless {@code safe-defaults.enabled} or {@value #ENABLED_PROPERTY} is
	 * false
	 */
	public static boolean isOn(EarlyPropertyBinder binder) {
		return binder.isOn(SafeDefaultsProperties.ENABLED_PROPERTY) && binder.isOn(ENABLED_PROPERTY);
	}

}
