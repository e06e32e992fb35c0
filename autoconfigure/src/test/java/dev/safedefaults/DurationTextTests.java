package dev.safedefaults;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.convert.ApplicationConversionService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a status line, a finding or the log writes a duration: as a property would set it,
 * so that a user can copy it back into a property and get the same duration.
 */
class DurationTextTests {

	@Test
	void wholeHoursAreWrittenInHours() {
		assertThat(DurationText.of(Duration.ofHours(2))).isEqualTo("2h");
		assertThat(DurationText.of(Duration.ofMinutes(60))).isEqualTo("1h");
	}

	@Test
	void wholeSecondsAreWrittenInSeconds() {
		assertThat(DurationText.of(Duration.ofSeconds(10))).isEqualTo("10s");
		assertThat(DurationText.of(Duration.ofMinutes(10))).isEqualTo("600s");
		assertThat(DurationText.of(Duration.ofMinutes(90))).isEqualTo("5400s");
	}

	@Test
	void theRestIsWrittenInMilliseconds() {
		assertThat(DurationText.of(Duration.ofMillis(1500))).isEqualTo("1500ms");
		assertThat(DurationText.of(Duration.ofMillis(1))).isEqualTo("1ms");
		assertThat(DurationText.of(Duration.ofNanos(1_999_999))).as("below a millisecond, cut").isEqualTo("1ms");
	}

	@Test
	void zeroAndNegativeDurationsAreWrittenAsTheyAreSet() {
		assertThat(DurationText.of(Duration.ZERO)).isEqualTo("0ms");
		assertThat(DurationText.of(Duration.ofSeconds(-1))).isEqualTo("-1s");
		assertThat(DurationText.of(Duration.ofMillis(-250))).isEqualTo("-250ms");
	}

	@Test
	void everyTextReadsBackAsTheSameDurationThroughBootsConversion() {
		ApplicationConversionService conversion = new ApplicationConversionService();
		for (Duration duration : new Duration[] { Duration.ofMillis(1), Duration.ofMillis(1500), Duration.ofSeconds(1),
				Duration.ofSeconds(59), Duration.ofMinutes(10), Duration.ofHours(1), Duration.ofHours(24),
				Duration.ofSeconds(-1), Duration.ZERO }) {
			assertThat(conversion.convert(DurationText.of(duration), Duration.class)).as(DurationText.of(duration))
				.isEqualTo(duration);
		}
	}

}
