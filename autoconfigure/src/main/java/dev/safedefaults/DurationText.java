package dev.safedefaults;

import java.time.Duration;

/**
 * A duration as a property would set it: {@code 10s}, {@code 1500ms}, {@code 2h}. One way
 * of writing a timeout or a threshold for every feature that names one in a status line,
 * a finding or the log.
 */
public final class DurationText {

	private DurationText() {
	}

	/**
	 * Writes a duration in whole hours, else whole seconds, else milliseconds.
	 * @param duration the duration
	 * @return its text
	 */
	public static String of(Duration duration) {
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
