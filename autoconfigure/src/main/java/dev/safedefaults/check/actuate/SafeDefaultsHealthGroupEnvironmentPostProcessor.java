package dev.safedefaults.check.actuate;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Defines, as a default the application can override, the health group
 * {@code safe-defaults}: only the {@code safeDefaults} contributor, details always shown,
 * so {@code GET /actuator/health/safe-defaults} lists the findings out of the box. Findings
 * never carry secrets; restrict it with
 * {@code management.endpoint.health.group.safe-defaults.show-details=when-authorized}.
 * <p>
 * The group is defined only when its contributor will exist, since Boot refuses a group
 * whose members are missing.
 */
public class SafeDefaultsHealthGroupEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** Name of the property source holding the defaults. It comes last: everything else wins. */
	public static final String PROPERTY_SOURCE_NAME = "safeDefaultsHealthGroup";

	/** The health group's name, as in {@code /actuator/health/safe-defaults}. */
	public static final String GROUP = "safe-defaults";

	/** The health indicator's key in {@code management.health.<key>.enabled}. */
	static final String HEALTH_INDICATOR = "safe-defaults";

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
		environment.getPropertySources()
			.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME,
					Map.of(prefix + "include", "safeDefaults", prefix + "show-details", "always")));
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
