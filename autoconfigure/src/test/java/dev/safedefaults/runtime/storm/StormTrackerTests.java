package dev.safedefaults.runtime.storm;

import java.time.Duration;
import java.time.Instant;

import dev.safedefaults.runtime.storm.StormTracker.Transition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StormTrackerTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final StormTracker tracker = new StormTracker(Duration.ofSeconds(5));

	private Transition second(int second, boolean above) {
		return this.tracker.update(T0.plusSeconds(second - 1), T0.plusSeconds(second), above);
	}

	@Test
	void aBurstShorterThanTheSustainedDurationIsNoStorm() {
		for (int s = 1; s <= 4; s++) {
			assertThat(second(s, true)).isEqualTo(Transition.NONE);
		}
		assertThat(second(5, false)).isEqualTo(Transition.NONE);
		assertThat(this.tracker.storming()).isFalse();
	}

	@Test
	void aRateAboveForTheSustainedDurationStartsAStormDatedFromItsFirstInterval() {
		for (int s = 1; s <= 4; s++) {
			assertThat(second(s, true)).isEqualTo(Transition.NONE);
		}
		assertThat(second(5, true)).isEqualTo(Transition.STARTED);
		assertThat(this.tracker.storming()).isTrue();
		assertThat(this.tracker.stormSince()).isEqualTo(T0);
	}

	@Test
	void aShortDipDoesNotEndAStorm() {
		for (int s = 1; s <= 5; s++) {
			second(s, true);
		}
		assertThat(second(6, false)).isEqualTo(Transition.NONE);
		assertThat(second(7, false)).isEqualTo(Transition.NONE);
		assertThat(second(8, true)).isEqualTo(Transition.NONE);
		for (int s = 9; s <= 12; s++) {
			assertThat(second(s, false)).isEqualTo(Transition.NONE);
		}
		assertThat(this.tracker.storming()).isTrue();
	}

	@Test
	void aRateBelowForTheSustainedDurationEndsTheStorm() {
		for (int s = 1; s <= 5; s++) {
			second(s, true);
		}
		for (int s = 6; s <= 9; s++) {
			assertThat(second(s, false)).isEqualTo(Transition.NONE);
		}
		assertThat(second(10, false)).isEqualTo(Transition.ENDED);
		assertThat(this.tracker.storming()).isFalse();
		assertThat(this.tracker.stormSince()).isNull();
	}

}
