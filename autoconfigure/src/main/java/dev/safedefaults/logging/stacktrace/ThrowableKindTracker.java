package dev.safedefaults.logging.stacktrace;

import java.util.Iterator;
import java.util.LinkedHashMap;

import org.jspecify.annotations.Nullable;

/**
 * Decides, for one converter, whether a throwable's stack trace is printed in full or
 * left out: the first {@code firstN} of a kind in an interval are printed, the rest are
 * not. An interval of a kind starts with the first occurrence after the previous one
 * ended.
 * <p>
 * Counting: a kind is counted from its first occurrence for as long as it keeps coming
 * back; once it has stayed away for a whole interval (or was pushed out of the map by
 * newer kinds) it starts again from one. Times are the events' own timestamps, so a
 * backlog rendered later reads the times at which things happened.
 * <p>
 * The map holds at most {@code maxKinds} kinds, the least recently seen leaving first. In
 * an all-async context only the one background thread renders, so the lock is never
 * contended; with synchronous loggers the callers share it for the few operations of a
 * map lookup.
 */
final class ThrowableKindTracker {

	private final LinkedHashMap<ThrowableKind, KindState> kinds = new LinkedHashMap<>(64, 0.75f, true);

	/**
	 * Records one occurrence.
	 * @param kind the throwable's kind
	 * @param timeMillis when the event happened
	 * @param settings the settings in force
	 * @return {@code null} to print the stack trace, or what to say instead
	 */
	synchronized @Nullable Elision record(ThrowableKind kind, long timeMillis, StackTraceThrottling.Settings settings) {
		long interval = settings.interval().toMillis();
		KindState state = this.kinds.get(kind);
		if (state == null) {
			state = new KindState(timeMillis);
			this.kinds.put(kind, state);
			trim(settings.maxKinds());
		}
		else if (timeMillis - state.lastSeen >= interval) {
			// Away for a whole interval: the storm of this kind is over, count anew.
			state.restart(timeMillis);
		}
		else if (timeMillis - state.intervalStart >= interval) {
			state.intervalStart = timeMillis;
			state.printedInInterval = 0;
		}
		state.seen++;
		state.lastSeen = Math.max(state.lastSeen, timeMillis);
		if (state.printedInInterval < settings.firstN()) {
			state.printedInInterval++;
			return null;
		}
		return new Elision(state.seen, state.firstSeen, state.intervalStart);
	}

	private void trim(int maxKinds) {
		Iterator<ThrowableKind> eldestFirst = this.kinds.keySet().iterator();
		while (this.kinds.size() > maxKinds && eldestFirst.hasNext()) {
			eldestFirst.next();
			eldestFirst.remove();
		}
	}

	/**
	 * How many kinds are remembered.
	 * @return the number of kinds
	 */
	synchronized int size() {
		return this.kinds.size();
	}

	/**
	 * What to write instead of a stack trace.
	 *
	 * @param seen occurrences of the kind since {@code sinceMillis}, this one included
	 * @param sinceMillis when the kind was first seen (it has come back within every
	 * interval since)
	 * @param firstPrintedMillis when the first full stack trace of the current interval
	 * was printed: where to look for it
	 */
	record Elision(long seen, long sinceMillis, long firstPrintedMillis) {
	}

	private static final class KindState {

		long firstSeen;

		long seen;

		long intervalStart;

		int printedInInterval;

		long lastSeen;

		KindState(long timeMillis) {
			restart(timeMillis);
		}

		void restart(long timeMillis) {
			this.firstSeen = timeMillis;
			this.seen = 0;
			this.intervalStart = timeMillis;
			this.printedInInterval = 0;
			this.lastSeen = timeMillis;
		}

	}

}
