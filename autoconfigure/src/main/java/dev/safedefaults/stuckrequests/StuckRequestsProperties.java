package dev.safedefaults.stuckrequests;

import java.time.Duration;

import dev.safedefaults.PropertyBounds;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The stuck-request watch ({@code safe-defaults.stuck-requests.*}).
 */
@ConfigurationProperties(StuckRequestsProperties.PREFIX)
public class StuckRequestsProperties implements InitializingBean {

	static final String PREFIX = "safe-defaults.stuck-requests";

	static final String ENABLED_PROPERTY = PREFIX + ".enabled";

	/**
	 * The shortest threshold accepted: below it, healthy slow pages would be examined.
	 */
	static final Duration MIN_THRESHOLD = Duration.ofSeconds(1);

	/**
	 * Whether to watch servlet requests that run longer than the threshold: each such
	 * request is examined once, from its own thread's stack, and what it waits for (an
	 * HTTP response, a JDBC read, a pool connection, a lock, a sleep) is a finding while
	 * it lasts, logged at once. On a healthy service it costs a map entry per request.
	 */
	private boolean enabled = true;

	/**
	 * How long a request may run before it is examined. From 1s to 10m. The default is
	 * the read timeout the starter gives the HTTP clients Boot builds: a request that
	 * waits longer than that waits on something no timeout of the starter bounds.
	 */
	private Duration threshold = Duration.ofSeconds(60);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getThreshold() {
		return this.threshold;
	}

	public void setThreshold(Duration threshold) {
		this.threshold = threshold;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange(PREFIX + ".threshold", this.threshold, MIN_THRESHOLD, PropertyBounds.MAX_TIMEOUT,
				"such as 60s; how long a request runs before it is examined");
	}

}
