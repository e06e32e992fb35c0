package dev.safedefaults.check.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Defines, as a default the application can override, the health group
 * {@code safe-defaults}: only the {@code safeDefaults} contributor. Who sees its details
 * (the findings) is left to the application: unset, the group inherits
 * {@code management.endpoint.health.show-details}, {@code show-components} and
 * {@code roles}, as every Boot health group does, so with Boot's default ({@code never})
 * an anonymous client sees {@code UP} and nothing else. {@code safe-defaults.health.show-details}
 * sets the group's {@code show-details} (and {@code show-components}); the application's own
 * {@code management.endpoint.health.group.safe-defaults.*} settings still win.
 * <p>
 * The group is defined only when its contributor will exist, since Boot refuses a group
 * whose members are missing.
 */
public class SafeDefaultsHealthGroupEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** Name of the property source holding the defaults. It comes last: everything else wins. */
	public static final String PROPERTY_SOURCE_NAME = "safeDefaultsHealthGroup";

	/** The health group's name, as in {@code /actuator/health/safe-defaults}. */
	public static final String GROUP = "safe-defaults";

	/** The property that opens (or closes) the findings, as the group's {@code show-details}. */
	public static final String SHOW_DETAILS_PROPERTY = "safe-defaults.health.show-details";

	/** The health indicator's key in {@code management.health.<key>.enabled}. */
	static final String HEALTH_INDICATOR = "safe-defaults";

	private static final List<String> ALLOWED = List.of("never", "when-authorized", "always");

	private static final String HEALTH_INDICATOR_CLASS = "org.springframework.boot.health.contributor.HealthIndicator";

	private static final String GROUPS_CLASS = "org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		ClassLoader classLoader = application.getClassLoader();
		if (!ClassUtils.isPresent(HEALTH_INDICATOR_CLASS, classLoader)
				|| !ClassUtils.isPresent(GROUPS_CLASS, classLoader) || !isContributorEnabled(environment)) {
			return;
		}
		String prefix = "management.endpoint.health.group." + GROUP + ".";
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put(prefix + "include", "safeDefaults");
		String showDetails = showDetails(environment);
		if (showDetails != null) {
			defaults.put(prefix + "show-details", showDetails);
			defaults.put(prefix + "show-components", showDetails);
		}
		environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, defaults));
	}

	/**
	 * Reads {@code safe-defaults.health.show-details} as Boot reads a {@code Show}, with a
	 * startup error naming the property, the value and what is allowed.
	 * @param environment the environment
	 * @return the value in Boot's spelling, {@code null} when unset
	 */
	static @Nullable String showDetails(ConfigurableEnvironment environment) {
		String value = environment.getProperty(SHOW_DETAILS_PROPERTY);
		if (value == null || value.isBlank()) {
			return null;
		}
		String normalized = value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
		if (!ALLOWED.contains(normalized)) {
			throw new IllegalStateException("Invalid " + SHOW_DETAILS_PROPERTY + "='" + value
					+ "': allowed values are never, when-authorized and always (unset follows "
					+ "management.endpoint.health.show-details)");
		}
		return normalized;
	}

	private static boolean isContributorEnabled(ConfigurableEnvironment environment) {
		if (!environment.getProperty("safe-defaults.enabled", Boolean.class, true)) {
			return false;
		}
		Boolean specific = environment.getProperty("management.health." + HEALTH_INDICATOR + ".enabled",
				Boolean.class);
		if (specific != null) {
			return specific;
		}
		return environment.getProperty("management.health.defaults.enabled", Boolean.class, true);
	}

	@Override
	public int getOrder() {
		// After the config data processor, so the application's properties are visible.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
