package dev.safedefaults.logging.stacktrace;

import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.LongAdder;

import dev.safedefaults.PropertyBounds;

/**
 * The settings every {@code %throttledEx} converter reads (Log4j2's and Logback's), and
 * the count of stack traces they left out. Log4j creates its converters when it parses a
 * configuration, before Spring has bound any property, and they serve every application
 * context in the JVM: they hold no settings of their own, they read those of the context
 * that registered them last and is still open ({@link #register}, from
 * {@code safe-defaults.logging.stack-traces.*}), else the defaults, as
 * {@code CountingQueueFullPolicy} does for the queue-full policy. Each context's settings
 * count their own elisions. No logging system's type here: either route's converter,
 * metrics and environment post-processor read it, Log4j's as well as Logback's.
 */
public final class StackTraceThrottling {

	/** The pattern-layout conversion word of the throttling converter. */
	public static final String CONVERSION_WORD = "%throttledEx";

	/** Spring Boot's property for the exception rendering of its logging patterns. */
	public static final String EXCEPTION_CONVERSION_WORD = "logging.exception-conversion-word";

	/**
	 * Name of the property source in which either route makes {@link #CONVERSION_WORD}
	 * Boot's {@link #EXCEPTION_CONVERSION_WORD}. It comes last: everything else wins.
	 */
	public static final String PROPERTY_SOURCE_NAME = "safeDefaultsStackTraces";

	/** Full stack traces of one kind per interval, by default. */
	public static final int DEFAULT_FIRST_N = 3;

	/**
	 * The default interval in which the first stack traces of a kind are printed in full.
	 */
	public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

	/**
	 * Kinds of throwable each converter remembers, by default. An entry holds the class
	 * names and the first three non-JDK frames of a throwable and its causes: measured at
	 * ~460 bytes for a throwable with one cause, so 1,024 kinds take under half a
	 * megabyte. A service has a few dozen failure sites; a kind pushed out by newer ones
	 * merely prints its trace again.
	 */
	public static final int DEFAULT_MAX_KINDS = 1024;

	private static final Settings DEFAULTS = new Settings(DEFAULT_FIRST_N, DEFAULT_INTERVAL, DEFAULT_MAX_KINDS);

	/** Before any context registers settings, and after the last one has closed. */
	private static final InForce jvmLevel = new InForce(DEFAULTS);

	/** The contexts' settings, the latest registered last. */
	private static final Deque<InForce> contexts = new ConcurrentLinkedDeque<>();

	private StackTraceThrottling() {
	}

	/**
	 * The settings in force.
	 * @return the settings
	 */
	public static Settings settings() {
		return current().settings;
	}

	private static InForce current() {
		InForce latest = contexts.peekLast();
		return (latest != null) ? latest : jvmLevel;
	}

	/**
	 * Makes an application context's settings the ones every converter reads until it
	 * closes.
	 * @param settings the settings
	 * @return the context's settings and count, to {@link #unregister} when it closes
	 */
	public static InForce register(Settings settings) {
		InForce inForce = new InForce(settings);
		contexts.addLast(inForce);
		return inForce;
	}

	/**
	 * A context has closed: the settings registered before, if still open, or the
	 * defaults, are in force again.
	 * @param inForce what {@link #register} returned
	 */
	public static void unregister(InForce inForce) {
		contexts.remove(inForce);
	}

	/**
	 * Changes the settings in force, including for converters already created.
	 * @param newSettings the settings
	 */
	public static void configure(Settings newSettings) {
		current().settings = newSettings;
	}

	/**
	 * Restores the defaults of the settings in force.
	 */
	public static void reset() {
		current().settings = DEFAULTS;
	}

	/**
	 * How many stack traces the converters have left out under the settings in force (one
	 * per rendering: an event written by two appenders counts twice).
	 * @return the count
	 */
	public static long elidedCount() {
		return current().elidedCount();
	}

	static void countElided() {
		current().elided.increment();
	}

	/**
	 * One application context's settings and count of elided stack traces.
	 */
	public static final class InForce {

		private final LongAdder elided = new LongAdder();

		private volatile Settings settings;

		private InForce(Settings settings) {
			this.settings = settings;
		}

		/**
		 * How many stack traces were left out under these settings.
		 * @return the count
		 */
		public long elidedCount() {
			return this.elided.sum();
		}

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
				// Bounded so that the throttle's millisecond arithmetic can never
				// overflow.
				throw new IllegalArgumentException("interval must be positive and at most 1d, is " + interval);
			}
			if (maxKinds < 1) {
				throw new IllegalArgumentException("maxKinds must be at least 1, is " + maxKinds);
			}
		}

	}

}
