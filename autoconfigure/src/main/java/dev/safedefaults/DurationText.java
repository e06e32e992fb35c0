package dev.safedefaults.httpclient.timeouts;

import java.time.Duration;

/**
 * A duration as a property would set it: {@code 10s}, {@code 1500ms}, {@code 2h}.
 */
final class DurationText {

	private DurationText() {
	}

	static String of(Duration duration) {
		long millis = duration.toMillis();
		if (millis != 0 && millis % 3_600_000 == 0) {
			return (millis / 3_600_000) + "h";
		}
		if (millis != 0 && millis % 1000 == 0) {
			return (millis / 1000) + "s";
		}
		return millis + "ms";
	}

}
