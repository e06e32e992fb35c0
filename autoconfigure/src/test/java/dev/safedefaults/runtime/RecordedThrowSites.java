package dev.safedefaults.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Throw sites as a source records them, for the tests of the packages that read them
 * ({@link ThrowSites.Counter} stays package-private).
 */
public final class RecordedThrowSites {

	private RecordedThrowSites() {
	}

	/**
	 * Nine {@code ClassNotFoundException}s at one site and one
	 * {@code NumberFormatException} at another, recorded over one second.
	 * @param at when the window was recorded
	 * @return the sites
	 */
	public static ThrowSites nineClassNotFoundAndOneNumberFormat(Instant at) {
		ThrowSites.Counter counter = new ThrowSites.Counter();
		for (int i = 0; i < 9; i++) {
			counter.add("java.lang.ClassNotFoundException", List.of("com.example.Converters.build:42"));
		}
		counter.add("java.lang.NumberFormatException", List.of("com.example.Ids.parse:7"));
		return counter.toSites(at, Duration.ofSeconds(1));
	}

}
