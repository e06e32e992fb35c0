package dev.safedefaults.runtime.storm;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Decides when a rate above its threshold has become a storm and when the storm is over:
 * either needs the new state to hold, without a break, for the sustained duration. A
 * short burst (a deployment's warm-up, a cache expiring) is not a storm, and a storm that
 * dips for one period is not over.
 */
final class StormTracker {

	/** What one sample changed. */
	enum Transition {

		/** The state did not change. */
		NONE,

		/** A storm has started. */
		STARTED,

		/** The storm is over. */
		ENDED

	}

	private final Duration sustainedFor;

	private boolean storming;

	private @Nullable Instant changingSince;

	private @Nullable Instant stormSince;

	StormTracker(Duration sustainedFor) {
		this.sustainedFor = sustainedFor;
	}

	/**
	 * Takes the state of one sampling interval.
	 * @param intervalStart when the interval began
	 * @param intervalEnd when it ended
	 * @param above whether the rate was above the threshold over the interval
	 * @return what changed
	 */
	Transition update(Instant intervalStart, Instant intervalEnd, boolean above) {
		if (above == this.storming) {
			this.changingSince = null;
			return Transition.NONE;
		}
		if (this.changingSince == null) {
			this.changingSince = intervalStart;
		}
		if (Duration.between(this.changingSince, intervalEnd).compareTo(this.sustainedFor) < 0) {
			return Transition.NONE;
		}
		this.storming = above;
		this.stormSince = above ? this.changingSince : null;
		this.changingSince = null;
		return above ? Transition.STARTED : Transition.ENDED;
	}

	boolean storming() {
		return this.storming;
	}

	/**
	 * When the current storm's rate first went above the threshold.
	 * @return the time, {@code null} outside a storm
	 */
	@Nullable Instant stormSince() {
		return this.stormSince;
	}

}
