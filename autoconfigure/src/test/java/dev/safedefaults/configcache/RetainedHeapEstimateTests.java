package dev.safedefaults.configcache;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The weight that bounds the cache in bytes of heap ({@code maximum-weight}): a text is
 * weighed by what it and the value parsed from it retain, not by its length (how close to
 * measured heap: the memory harness, docs/config-cache-memory.md).
 */
class RetainedHeapEstimateTests {

	private final JsonMapper mapper = JsonMapper.builder().build();

	@Test
	void anArrayOfEmptyObjectsIsWeighedByTheObjectsItBindsNotByItsLength() {
		// Counting characters let such a text hold 22 bytes of heap per byte of the
		// bound.
		String text = "[" + "{},".repeat(999) + "{}]";
		long weight = RetainedHeapEstimate.of(this.mapper, text, 64);
		assertThat(weight).isGreaterThanOrEqualTo(1000 * RetainedHeapEstimate.OBJECT_BYTES)
			.isGreaterThan(22L * text.length());
	}

	@Test
	void charactersBeyondLatin1WeighTwoBytesInTheTextAndInTheParsedValue() {
		long latin1 = RetainedHeapEstimate.of(this.mapper, "\"" + "z".repeat(1000) + "\"", 64);
		long cyrillic = RetainedHeapEstimate.of(this.mapper, "\"" + "ж".repeat(1000) + "\"", 64);
		assertThat(cyrillic - latin1).isEqualTo(2 * 1000);
	}

	@Test
	void aTextNestedDeeperThanAllowedIsRefusedBeforeItIsParsed() {
		String text = "{\"pools\":[[1]]}";
		assertThat(RetainedHeapEstimate.of(this.mapper, text, 3)).isPositive();
		assertThatExceptionOfType(RetainedHeapEstimate.TooDeepException.class)
			.isThrownBy(() -> RetainedHeapEstimate.of(this.mapper, text, 2));
	}

}
