package dev.safedefaults.logging.stacktraces;

import java.time.Duration;

import org.springframework.beans.factory.DisposableBean;

/**
 * Applies {@code safe-defaults.logging.stack-traces.first-n}, {@code interval} and
 * {@code max-kinds} to every {@link ThrottledThrowablePatternConverter} (the properties
 * check their range themselves); restores the defaults when the application context closes.
 */
public class StackTraceThrottleConfigurer implements DisposableBean {

	/**
	 * Applies the settings, whose range {@code LoggingDefaultsProperties} has checked.
	 * @param firstN full stack traces of one kind per interval
	 * @param interval the interval
	 * @param maxKinds kinds each converter remembers
	 */
	public StackTraceThrottleConfigurer(int firstN, Duration interval, int maxKinds) {
		StackTraceThrottling.configure(new StackTraceThrottling.Settings(firstN, interval, maxKinds));
	}

	@Override
	public void destroy() {
		StackTraceThrottling.reset();
	}

}
