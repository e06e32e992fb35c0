package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.SafeDefaultsProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.util.ClassUtils;

/**
 * Gives Boot's HTTP client settings a connect and a read timeout (incident 6): Boot 4
 * sets none, and the JDK {@code HttpClient} it picks by default then waits for ever on a
 * downstream that accepts the connection and never answers. The values go into
 * {@code spring.http.clients.connect-timeout} and
 * {@code spring.http.clients.read-timeout} in a property source that comes last, so every
 * value of the application's own wins: the global keys wherever they are set, a group's
 * {@code spring.http.serviceclient.<group>.*} (Boot takes a group's own value before the
 * global one), an {@code HttpClientSettings} bean (Boot's then backs off and never reads
 * the keys), and a factory or connector customizer (Boot runs it after the settings).
 * <p>
 * Runs after the config data processor, like the starter's other post-processors, so it
 * sees the switches wherever they are set. The starter's own keys are read here only.
 */
public class HttpClientTimeoutsDefaults implements EnvironmentPostProcessor, Ordered {

	/** Name of the property source holding the defaults; it comes last. */
	public static final String PROPERTY_SOURCE_NAME = "safeDefaultsHttpClientTimeouts";

	/** The feature's switch (declared in additional configuration metadata). */
	public static final String ENABLED_PROPERTY = "safe-defaults.http-client-timeouts.enabled";

	/** The default connect timeout's key. */
	public static final String CONNECT_PROPERTY = "safe-defaults.http-client-timeouts.connect";

	/** The default read timeout's key. */
	public static final String READ_PROPERTY = "safe-defaults.http-client-timeouts.read";

	/** Boot's global connect timeout. */
	static final String BOOT_CONNECT = "spring.http.clients.connect-timeout";

	/** Boot's global read timeout. */
	static final String BOOT_READ = "spring.http.clients.read-timeout";

	/** OpenFeign's connect timeout, the most conservative peer's. */
	static final Duration DEFAULT_CONNECT = Duration.ofSeconds(10);

	/** OpenFeign's read timeout, the most conservative peer's. */
	static final Duration DEFAULT_READ = Duration.ofSeconds(60);

	/**
	 * The longest connect timeout the starter accepts: Linux gives up a connection
	 * attempt after about 2 minutes of unanswered SYNs, so a longer one changes nothing.
	 */
	static final Duration MAX_CONNECT = Duration.ofMinutes(5);

	/** The longest read timeout the starter accepts: the house bound for timeouts. */
	static final Duration MAX_READ = Duration.ofMinutes(10);

	/**
	 * The source Boot attaches first, which holds every other source's keys
	 * ({@code ConfigurationPropertySources.attach}).
	 */
	private static final String BOOTS_VIEW_OF_ALL_SOURCES = "configurationProperties";

	private static final String SETTINGS_CLASS = "org.springframework.boot.http.client.HttpClientSettings";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!ClassUtils.isPresent(SETTINGS_CLASS, application.getClassLoader())) {
			return;
		}
		if (!isOn(environment)) {
			return;
		}
		EarlyPropertyBinder binder = EarlyPropertyBinder.of(environment);
		Duration connect = orDefault(binder.duration(CONNECT_PROPERTY, Duration.ofMillis(1), MAX_CONNECT,
				"how long a connection to a downstream may take, such as 10s"), DEFAULT_CONNECT);
		Duration read = orDefault(binder.duration(READ_PROPERTY, Duration.ofMillis(1), MAX_READ,
				"how long a client waits for a downstream's answer, such as 60s"), DEFAULT_READ);
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put(BOOT_CONNECT, connect.toMillis() + "ms");
		defaults.put(BOOT_READ, read.toMillis() + "ms");
		environment.getPropertySources().addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, defaults));
	}

	/**
	 * Whether the starter and this feature are both switched on: the one reading of
	 * {@value #ENABLED_PROPERTY}.
	 * @param environment the environment
	 * @return true unless {@code safe-defaults.enabled} or {@value #ENABLED_PROPERTY} is
	 * false
	 */
	static boolean isOn(ConfigurableEnvironment environment) {
		EarlyPropertyBinder binder = EarlyPropertyBinder.of(environment);
		return binder.isOn(SafeDefaultsProperties.ENABLED_PROPERTY) && binder.isOn(ENABLED_PROPERTY);
	}

	private static Duration orDefault(@Nullable Duration value, Duration fallback) {
		return (value != null) ? value : fallback;
	}

	/**
	 * Whether a key's value comes from the starter's defaults: no other property source
	 * has it.
	 * @param environment the environment
	 * @param key a key
	 * @return whether the first source that holds the key is the starter's
	 */
	static boolean fromDefaults(ConfigurableEnvironment environment, String key) {
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (BOOTS_VIEW_OF_ALL_SOURCES.equals(source.getName())) {
				continue;
			}
			if (source.containsProperty(key)) {
				return PROPERTY_SOURCE_NAME.equals(source.getName());
			}
		}
		return false;
	}

	@Override
	public int getOrder() {
		// After the config data processor, so the application's properties are visible.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
