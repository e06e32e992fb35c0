package dev.safedefaults.logging.stacktraces;

import java.time.Duration;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Applies {@code safe-defaults.logging.stack-traces.first-n}, {@code interval} and
 * {@code max-kinds} to every {@link ThrottledThrowablePatternConverter}, refusing values out
 * of range; restores the defaults when the application context closes.
 */
public class StackTraceThrottleSettings implements DisposableBean {

	private static final String PREFIX = "safe-defaults.logging.stack-traces.";

	/**
	 * Checks and applies the settings.
	 * @param firstN full stack traces of one kind per interval
	 * @param interval the interval
	 * @param maxKinds kinds each converter remembers
	 * @throws InvalidConfigurationPropertyValueException naming the property when a value is
	 * out of range
	 */
	public StackTraceThrottleSettings(int firstN, Duration interval, int maxKinds) {
		if (firstN < 1) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "first-n", firstN,
					"Must be at least 1: the first throwable of each kind is always printed in full");
		}
		if (interval == null || interval.isZero() || interval.isNegative()) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "interval", interval,
					"Must be a positive duration, such as 1m");
		}
		if (maxKinds < 1) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "max-kinds", maxKinds,
					"Must be at least 1 (default " + StackTraceThrottling.DEFAULT_MAX_KINDS + ")");
		}
		StackTraceThrottling.configure(new StackTraceThrottling.Settings(firstN, interval, maxKinds));
	}

	@Override
	public void destroy() {
		StackTraceThrottling.reset();
	}

}
