package dev.safedefaults.logging.stacktrace;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code %throttledEx}'s decision for one layout, on both logging systems: the first
 * {@code first-n} stack traces of a kind per interval in full, a count for the rest, by
 * the events' own times.
 */
class ThrowableKindTrackerTests {

	private static final long MINUTE = 60_000;

	private final StackTraceThrottling.Settings settings = new StackTraceThrottling.Settings(3, Duration.ofMinutes(1),
			1024);

	private final ThrowableKindTracker tracker = new ThrowableKindTracker();

	private final ThrowableKind refused = ThrowableKind.of(new IllegalStateException("refused"));

	@Test
	void theFirstNOfAKindArePrintedAndTheRestCountedFromTheFirst() {
		for (long t = 0; t < 3; t++) {
			assertThat(this.tracker.record(this.refused, 1_000 + t, this.settings)).as("occurrence %d", t + 1).isNull();
		}
		assertThat(this.tracker.record(this.refused, 1_010, this.settings))
			.isEqualTo(new ThrowableKindTracker.Elision(4, 1_000, 1_000));
		assertThat(this.tracker.record(this.refused, 1_020, this.settings))
			.isEqualTo(new ThrowableKindTracker.Elision(5, 1_000, 1_000));
	}

	@Test
	void aKindThatKeepsComingIsPrintedAgainEachIntervalAndKeepsItsCount() {
		long t = 0;
		for (int i = 0; i < 4; i++) {
			this.tracker.record(this.refused, t += 10_000, this.settings);
		}
		long nextInterval = 10_000 + MINUTE;
		assertThat(this.tracker.record(this.refused, nextInterval, this.settings)).isNull();
		this.tracker.record(this.refused, nextInterval + 1, this.settings);
		this.tracker.record(this.refused, nextInterval + 2, this.settings);
		assertThat(this.tracker.record(this.refused, nextInterval + 3, this.settings))
			.isEqualTo(new ThrowableKindTracker.Elision(8, 10_000, nextInterval));
	}

	@Test
	void aKindAwayForAWholeIntervalStartsAgainFromOne() {
		for (int i = 0; i < 5; i++) {
			this.tracker.record(this.refused, i, this.settings);
		}
		long back = 4 + MINUTE;
		for (int i = 0; i < 3; i++) {
			assertThat(this.tracker.record(this.refused, back + i, this.settings)).isNull();
		}
		assertThat(this.tracker.record(this.refused, back + 3, this.settings))
			.isEqualTo(new ThrowableKindTracker.Elision(4, back, back));
	}

	@Test
	void pastMaxKindsTheLeastRecentlySeenKindIsForgottenAndPrintedAgain() {
		StackTraceThrottling.Settings oneKind = new StackTraceThrottling.Settings(1, Duration.ofMinutes(1), 1);
		ThrowableKind timedOut = ThrowableKind.of(new IllegalArgumentException("timed out"));
		assertThat(this.tracker.record(this.refused, 0, oneKind)).isNull();
		assertThat(this.tracker.record(this.refused, 1, oneKind)).isNotNull();
		assertThat(this.tracker.record(timedOut, 2, oneKind)).isNull();
		assertThat(this.tracker.size()).isEqualTo(1);
		assertThat(this.tracker.record(this.refused, 3, oneKind)).as("forgotten, so printed again").isNull();
	}

}
