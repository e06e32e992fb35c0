package dev.safedefaults.logging.stacktrace;

import java.time.Duration;

import org.springframework.beans.factory.DisposableBean;

/**
 * Applies {@code safe-defaults.logging.stack-traces.first-n}, {@code interval} and
 * {@code max-kinds} to every {@code %throttledEx} converter, Log4j2's and Logback's (the
 * properties check their range themselves), as this application context's settings (with
 * their own count of elided stack traces) until it closes.
 */
public class StackTraceThrottleConfigurer implements DisposableBean {

	private final StackTraceThrottling.InForce inForce;

	/**
	 * Applies the settings, whose range {@code LoggingDefaultsProperties} has checked.
	 * @param firstN full stack traces of one kind per interval
	 * @param interval the interval
	 * @param maxKinds kinds each converter remembers
	 */
	public StackTraceThrottleConfigurer(int firstN, Duration interval, int maxKinds) {
		this.inForce = StackTraceThrottling.register(new StackTraceThrottling.Settings(firstN, interval, maxKinds));
	}

	/**
	 * How many stack traces were left out under this application context's settings.
	 * @return the count
	 */
	public long elidedCount() {
		return this.inForce.elidedCount();
	}

	@Override
	public void destroy() {
		StackTraceThrottling.unregister(this.inForce);
	}

}
