package dev.safedefaults.stuckrequests;

import java.time.Duration;

/**
 * A duration as a user writes it in a property ({@code 60s}, {@code 1500ms}).
 */
final class DurationWords {

	private DurationWords() {
	}

	static String of(Duration duration) {
		if (duration.toMillis() % 1000 != 0) {
			return duration.toMillis() + "ms";
		}
		return duration.toSeconds() + "s";
	}

}
