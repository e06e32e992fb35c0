package dev.safedefaults.logging.stacktraces;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import dev.safedefaults.PropertyBounds;

/**
 * The settings every {@link ThrottledThrowablePatternConverter} reads, and the count of
 * stack traces they left out. Log4j creates its converters when it parses a configuration,
 * before Spring has bound any property, so the settings start at their defaults and
 * {@code safe-defaults.logging.stack-traces.*} changes them at runtime (as
 * {@code CountingQueueFullPolicy} does for the queue-full policy). No Log4j type here: the
 * metrics and the environment post-processor read it without loading Log4j.
 */
public final class StackTraceThrottling {

	/** The pattern-layout conversion word of the throttling converter. */
	public static final String CONVERSION_WORD = "%throttledEx";

	/** Full stack traces of one kind per interval, by default. */
	public static final int DEFAULT_FIRST_N = 3;

	/** The default interval in which the first stack traces of a kind are printed in full. */
	public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

	/**
	 * Kinds of throwable each converter remembers, by default. An entry holds the class
	 * names and the first three non-JDK frames of a throwable and its causes: measured at
	 * ~460 bytes for a throwable with one cause, so 1,024 kinds take under half a megabyte.
	 * A service has a few dozen failure sites; a kind pushed out by newer ones merely prints
	 * its trace again.
	 */
	public static final int DEFAULT_MAX_KINDS = 1024;

	private static final Settings DEFAULTS = new Settings(DEFAULT_FIRST_N, DEFAULT_INTERVAL, DEFAULT_MAX_KINDS);

	private static final LongAdder elided = new LongAdder();

	private static volatile Settings settings = DEFAULTS;

	private StackTraceThrottling() {
	}

	/**
	 * The settings in force.
	 * @return the settings
	 */
	public static Settings settings() {
		return settings;
	}

	/**
	 * Changes the settings of every converter, including those already created.
	 * @param newSettings the settings
	 */
	public static void configure(Settings newSettings) {
		settings = newSettings;
	}

	/**
	 * Restores the defaults.
	 */
	public static void reset() {
		settings = DEFAULTS;
	}

	/**
	 * How many stack traces the converters have left out since the JVM started (one per
	 * rendering: an event written by two appenders counts twice).
	 * @return the count
	 */
	public static long elidedCount() {
		return elided.sum();
	}

	static void countElided() {
		elided.increment();
	}

	/**
	 * What the converters do.
	 *
	 * @param firstN full stack traces of one kind per interval, at least 1
	 * @param interval the interval, positive, at most a day
	 * @param maxKinds kinds each converter remembers, at least 1
	 */
	public record Settings(int firstN, Duration interval, int maxKinds) {

		/**
		 * Checks the values.
		 * @throws IllegalArgumentException when one is out of range
		 */
		public Settings {
			if (firstN < 1) {
				throw new IllegalArgumentException("firstN must be at least 1, is " + firstN);
			}
			if (interval == null || interval.isZero() || interval.isNegative()
					|| interval.compareTo(PropertyBounds.MAX_INTERVAL) > 0) {
				// Bounded so that the throttle's millisecond arithmetic can never overflow.
				throw new IllegalArgumentException("interval must be positive and at most 1d, is " + interval);
			}
			if (maxKinds < 1) {
				throw new IllegalArgumentException("maxKinds must be at least 1, is " + maxKinds);
			}
		}

	}

}
