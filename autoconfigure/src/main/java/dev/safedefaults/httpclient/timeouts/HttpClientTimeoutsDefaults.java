package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;

import dev.safedefaults.ClientReadTimeout;
import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.SafeDefaultsProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The connect and read timeouts the starter gives Boot's HTTP clients where the
 * application sets none (incident 6): Boot 4 sets none, and the JDK {@code HttpClient} it
 * picks by default then waits for ever on a downstream that accepts the connection and
 * never answers. The one reading of {@code safe-defaults.http-client-timeouts.*}; an
 * out-of-range value fails the start naming the property, the value and the range.
 *
 * @param connect the default connect timeout
 * @param read the default read timeout
 */
public record HttpClientTimeoutsDefaults(Duration connect, Duration read) {

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

	/**
	 * OpenFeign's read timeout, the most conservative peer's (written once, in the root).
	 */
	static final Duration DEFAULT_READ = ClientReadTimeout.STARTER_DEFAULT;

	/**
	 * The longest connect timeout the starter accepts: Linux gives up a connection
	 * attempt after about 2 minutes of unanswered SYNs, so a longer one changes nothing.
	 */
	static final Duration MAX_CONNECT = Duration.ofMinutes(5);

	/** The longest read timeout the starter accepts: the house bound for timeouts. */
	static final Duration MAX_READ = Duration.ofMinutes(10);

	/**
	 * The defaults, when the starter and this feature are switched on.
	 * @param environment the environment
	 * @return the defaults, or {@code null} when switched off
	 */
	static @Nullable HttpClientTimeoutsDefaults of(ConfigurableEnvironment environment) {
		if (!isOn(environment)) {
			return null;
		}
		EarlyPropertyBinder binder = EarlyPropertyBinder.of(environment);
		Duration connect = binder.duration(CONNECT_PROPERTY, Duration.ofMillis(1), MAX_CONNECT,
				"how long a connection to a downstream may take, such as 10s");
		Duration read = binder.duration(READ_PROPERTY, Duration.ofMillis(1), MAX_READ,
				"how long a client waits for a downstream's answer, such as 60s");
		return new HttpClientTimeoutsDefaults((connect != null) ? connect : DEFAULT_CONNECT,
				(read != null) ? read : DEFAULT_READ);
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

}
