package dev.safedefaults.logging.log4j2;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.LongAdder;

import dev.safedefaults.logging.QueueFullMode;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.async.DefaultAsyncQueueFullPolicy;
import org.apache.logging.log4j.core.async.EventRoute;
import org.apache.logging.log4j.util.PropertiesUtil;
import org.jspecify.annotations.Nullable;

/**
 * What an async logger does when its ring buffer is full (incident 2: request threads
 * blocked on a full buffer). In {@link QueueFullMode#DISCARD} (the default), events at or
 * below the threshold (INFO by default) are dropped and counted; WARN and more severe
 * events wait for room at most {@code safe-defaults.logging.queue-full-timeout}, then the
 * output counts as stalled and they are dropped and counted by level
 * ({@link SevereEventWait}, issue 49). In {@link QueueFullMode#BLOCK} every event waits,
 * for as long as the buffer stays full.
 * <p>
 * Log4j creates its instances by class name ({@code log4j2.asyncQueueFullPolicy}), before
 * Spring starts, and one ring buffer serves every application context in the JVM: the
 * policy holds no settings of its own, it routes each event to the settings of the
 * context that configured them last and is still open ({@link #register}), else to the
 * JVM-level ones ({@code log4j2.discardThreshold}). Each context's settings count their
 * own discards, so a restarted context (DevTools, a test's second context) starts at zero
 * with its own mode and threshold.
 */
public class CountingQueueFullPolicy extends DefaultAsyncQueueFullPolicy {

	/** Before any context configures the policy, and after the last one has closed. */
	private static final Settings jvmLevel = new Settings(QueueFullMode.DISCARD, Level.INFO, null);

	/** The contexts' settings, the latest configured last. */
	private static final Deque<Settings> contexts = new ConcurrentLinkedDeque<>();

	private static volatile boolean jvmLevelConfiguredAtRuntime;

	/**
	 * Called by Log4j when a ring buffer starts; takes the JVM-level threshold from
	 * {@code log4j2.discardThreshold} unless it was changed at runtime already (a second
	 * logger context or a reconfiguration must not undo that).
	 */
	public CountingQueueFullPolicy() {
		if (!jvmLevelConfiguredAtRuntime) {
			String configured = PropertiesUtil.getProperties()
				.getStringProperty(Log4jDefaultsPropertySource.DISCARD_THRESHOLD, Level.INFO.name());
			jvmLevel.threshold = Level.toLevel(configured, Level.INFO);
		}
	}

	@Override
	public EventRoute getRoute(long backgroundThreadId, Level level) {
		Settings settings = current();
		if (settings.mode == QueueFullMode.DISCARD) {
			if (settings.isDiscardable(level)) {
				settings.discarded.increment();
				return EventRoute.DISCARD;
			}
			SevereEventWait severe = settings.severe;
			if (severe != null) {
				EventRoute route = severe.route(level);
				if (route == EventRoute.DISCARD && !level.isMoreSpecificThan(Level.WARN)) {
					// Above a lowered threshold (INFO with 'debug'): counted with the
					// discards.
					settings.discarded.increment();
				}
				return route;
			}
		}
		return super.getRoute(backgroundThreadId, level);
	}

	private static Settings current() {
		Settings latest = contexts.peekLast();
		return (latest != null) ? latest : jvmLevel;
	}

	/**
	 * Makes an application context's settings the ones in force until it closes.
	 * @param mode the mode
	 * @param threshold the threshold; WARN and more severe levels are never discarded
	 * @return the context's settings, to {@link #unregister} when it closes
	 */
	public static Settings register(QueueFullMode mode, Level threshold) {
		return register(mode, threshold, null);
	}

	/**
	 * Makes an application context's settings the ones in force until it closes, with a
	 * bounded wait for WARN and ERROR events.
	 * @param mode the mode
	 * @param threshold the threshold; WARN and more severe levels are never discarded
	 * without waiting first
	 * @param severe how WARN and ERROR events wait for room in discard mode; {@code null}
	 * makes them wait for as long as the buffer stays full
	 * @return the context's settings, to {@link #unregister} when it closes
	 */
	static Settings register(QueueFullMode mode, Level threshold, @Nullable SevereEventWait severe) {
		Settings settings = new Settings(mode, threshold, severe);
		contexts.addLast(settings);
		return settings;
	}

	/**
	 * A context has closed: the settings of the one configured before it, if still open,
	 * or the JVM-level ones, are in force again.
	 * @param settings what {@link #register} returned
	 */
	public static void unregister(Settings settings) {
		contexts.remove(settings);
	}

	/**
	 * How many events have been discarded under the settings in force.
	 * @return the count
	 */
	public static long discardedCount() {
		return current().discardedCount();
	}

	/**
	 * The current mode.
	 * @return the mode
	 */
	public static QueueFullMode mode() {
		return current().mode;
	}

	/**
	 * The current threshold: events at this level and below may be discarded.
	 * @return the threshold
	 */
	public static Level threshold() {
		return current().threshold;
	}

	/**
	 * Changes the mode and threshold in force at runtime.
	 * @param newMode the mode
	 * @param newThreshold the threshold; WARN and more severe levels are never discarded
	 */
	public static void configure(QueueFullMode newMode, Level newThreshold) {
		Settings settings = current();
		settings.mode = newMode;
		settings.threshold = newThreshold;
		if (settings == jvmLevel) {
			jvmLevelConfiguredAtRuntime = true;
		}
	}

	/**
	 * One application context's mode, threshold and count of discards.
	 */
	public static final class Settings {

		private final LongAdder discarded = new LongAdder();

		private volatile QueueFullMode mode;

		private volatile Level threshold;

		private final @Nullable SevereEventWait severe;

		private Settings(QueueFullMode mode, Level threshold, @Nullable SevereEventWait severe) {
			this.mode = mode;
			this.threshold = threshold;
			this.severe = severe;
		}

		private boolean isDiscardable(Level level) {
			// WARN, ERROR and FATAL are never discarded without waiting first,
			// whatever the threshold says.
			return level.isLessSpecificThan(this.threshold) && level.intLevel() > Level.WARN.intLevel();
		}

		/**
		 * How many events were discarded under these settings.
		 * @return the count
		 */
		public long discardedCount() {
			return this.discarded.sum();
		}

	}

}
