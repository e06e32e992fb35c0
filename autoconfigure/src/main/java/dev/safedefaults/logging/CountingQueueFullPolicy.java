package dev.safedefaults.logging;

import java.util.concurrent.atomic.LongAdder;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.async.DefaultAsyncQueueFullPolicy;
import org.apache.logging.log4j.core.async.EventRoute;
import org.apache.logging.log4j.util.PropertiesUtil;

/**
 * What an async logger does when its ring buffer is full (incident 2: request threads
 * blocked on a full buffer). In {@link Mode#DISCARD} (the default), events at or below the
 * threshold (INFO by default) are dropped and counted; WARN and more severe events are
 * never dropped: they wait for space, as with Log4j's default policy. In
 * {@link Mode#BLOCK} every event waits.
 * <p>
 * Log4j creates its instances by class name ({@code log4j2.asyncQueueFullPolicy}), before
 * Spring starts, so mode, threshold and count are shared by all of them; Spring properties
 * ({@code safe-defaults.logging.queue-full-policy}, {@code discard-threshold}) change
 * them at runtime.
 */
public class CountingQueueFullPolicy extends DefaultAsyncQueueFullPolicy {

	/** What to do with an event that finds the ring buffer full. */
	public enum Mode {

		/** Drop events at or below the threshold (never WARN or above), and count them. */
		DISCARD,

		/** Every event waits for space: the request thread blocks (Log4j's default). */
		BLOCK

	}

	private static final LongAdder discarded = new LongAdder();

	private static volatile Mode mode = Mode.DISCARD;

	private static volatile Level threshold = Level.INFO;

	private static volatile boolean configuredAtRuntime;

	/**
	 * Called by Log4j when a ring buffer starts; takes the threshold from
	 * {@code log4j2.discardThreshold} unless Spring properties have set it already (a
	 * second logger context or a reconfiguration must not undo them).
	 */
	public CountingQueueFullPolicy() {
		if (!configuredAtRuntime) {
			String configured = PropertiesUtil.getProperties()
				.getStringProperty(Log4jDefaultsPropertySource.DISCARD_THRESHOLD, Level.INFO.name());
			threshold = Level.toLevel(configured, Level.INFO);
		}
	}

	@Override
	public EventRoute getRoute(long backgroundThreadId, Level level) {
		if (mode == Mode.DISCARD && isDiscardable(level)) {
			discarded.increment();
			return EventRoute.DISCARD;
		}
		return super.getRoute(backgroundThreadId, level);
	}

	private static boolean isDiscardable(Level level) {
		// WARN, ERROR and FATAL are never discarded, whatever the threshold says.
		return level.isLessSpecificThan(threshold) && level.intLevel() > Level.WARN.intLevel();
	}

	/**
	 * How many events have been discarded since the JVM started.
	 * @return the count
	 */
	public static long discardedCount() {
		return discarded.sum();
	}

	/**
	 * The current mode.
	 * @return the mode
	 */
	public static Mode mode() {
		return mode;
	}

	/**
	 * The current threshold: events at this level and below may be discarded.
	 * @return the threshold
	 */
	public static Level threshold() {
		return threshold;
	}

	/**
	 * Changes mode and threshold at runtime.
	 * @param newMode the mode
	 * @param newThreshold the threshold; WARN and more severe levels are never discarded
	 */
	public static void configure(Mode newMode, Level newThreshold) {
		mode = newMode;
		threshold = newThreshold;
		configuredAtRuntime = true;
	}

}
