package dev.safedefaults.stuckrequests.reactive;

import java.time.Duration;

import dev.safedefaults.PropertyBounds;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The event-loop watch ({@code safe-defaults.stuck-requests.event-loop.*}).
 */
@ConfigurationProperties(EventLoopProperties.PREFIX)
public class EventLoopProperties implements InitializingBean {

	static final String PREFIX = "safe-defaults.stuck-requests.event-loop";

	static final String ENABLED_PROPERTY = PREFIX + ".enabled";

	/** Below it a loaded machine's scheduling delays would be named as blocked loops. */
	static final Duration MIN_BLOCKED_THRESHOLD = Duration.ofMillis(500);

	/** Above it a blocked loop is no longer named within seconds. */
	static final Duration MAX_BLOCKED_THRESHOLD = Duration.ofMinutes(1);

	/**
	 * Whether to watch Reactor Netty's event loops (a WebFlux server's and its clients'):
	 * a heartbeat task runs on each loop a few times a second, and a loop that has not
	 * run it for longer than blocked-threshold is named with the frame that blocks it and
	 * what it waits on, as a finding while it lasts, logged at once.
	 */
	private boolean enabled = true;

	/**
	 * How long an event loop may run none of its tasks before it is named as blocked.
	 * From 500ms to 1m. A healthy loop never blocks: Vert.x's blocked-thread checker
	 * warns after 2s.
	 */
	private Duration blockedThreshold = Duration.ofSeconds(2);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getBlockedThreshold() {
		return this.blockedThreshold;
	}

	public void setBlockedThreshold(Duration blockedThreshold) {
		this.blockedThreshold = blockedThreshold;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange(PREFIX + ".blocked-threshold", this.blockedThreshold, MIN_BLOCKED_THRESHOLD,
				MAX_BLOCKED_THRESHOLD, "such as 2s; how long an event loop may run none of its tasks");
	}

}
