package dev.safedefaults.configcache;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * Estimates, before parsing, the heap a configuration text and the value parsed from it
 * retain, from the JSON tokens of the text: a cache bound in bytes then bounds memory for
 * any shape of JSON, where counting characters let {@code [{},{},…]} hold 22 bytes of
 * heap per byte of the bound.
 * <p>
 * The sizes are those of a 64-bit JVM with compressed references, for the most generous
 * binding Jackson makes of each token: an object as a {@code LinkedHashMap} (or an
 * {@code ObjectNode} around one) with its table and one entry per property, property
 * names as their own strings, an array as an {@code ArrayList} grown by half as it fills,
 * a string as a {@code String}, a number boxed (small integers are the JVM's cached
 * ones). Records and primitive arrays take less, so for them the estimate is high: the
 * cache then holds fewer of them, never more heap than its bound says. Calibrated against
 * measured retained heap (see the memory harness, {@code ParsedConfigCacheMemory});
 * without compressed references (heaps of 32 GB and more) the real figures are up to 1.5
 * times these.
 * <p>
 * The same pass rejects a text nested deeper than allowed, before Jackson builds
 * anything.
 */
final class RetainedHeapEstimate {

	/** Cache node, key record, map node and the weighed value holder of one entry. */
	static final long ENTRY_BYTES = 160;

	/** A {@code String} and its array header, without the characters. */
	static final long STRING_BYTES = 40;

	/** A {@code LinkedHashMap} (56) inside an {@code ObjectNode} (16). */
	static final long OBJECT_BYTES = 72;

	/** One {@code LinkedHashMap.Entry}. */
	static final long PROPERTY_BYTES = 40;

	/** An {@code ArrayList} (24) inside an {@code ArrayNode} (16). */
	static final long ARRAY_BYTES = 40;

	/** A boxed {@code Long} or {@code Double}. */
	static final long NUMBER_BYTES = 24;

	/** A {@code BigDecimal} with its {@code BigInteger}, beyond the digits. */
	static final long BIG_NUMBER_BYTES = 72;

	private RetainedHeapEstimate() {
	}

	/**
	 * Estimates the heap a cache entry for this text retains.
	 * @param mapper the mapper whose parser settings apply
	 * @param text the text
	 * @param maxDepth the deepest nesting allowed
	 * @return the estimate in bytes
	 * @throws TooDeepException when the text nests deeper than {@code maxDepth}
	 * @throws tools.jackson.core.JacksonException when the text is not JSON
	 */
	static long of(JsonMapper mapper, String text, int maxDepth) {
		long bytes = ENTRY_BYTES + string(text);
		// Per open container: its count of properties or elements so far.
		int[] counts = new int[maxDepth + 1];
		int depth = 0;
		try (JsonParser parser = mapper.createParser(text)) {
			for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
				switch (token) {
					case START_OBJECT, START_ARRAY -> {
						if (depth == maxDepth) {
							throw new TooDeepException(maxDepth, parser.currentLocation().getLineNr(),
									parser.currentLocation().getColumnNr());
						}
						counts[++depth] = 0;
					}
					case END_OBJECT -> bytes += object(counts[depth--]);
					case END_ARRAY -> bytes += array(counts[depth--]);
					case PROPERTY_NAME -> bytes += PROPERTY_BYTES + STRING_BYTES + chars(parser.getString());
					case VALUE_STRING -> bytes += STRING_BYTES + chars(parser.getString());
					case VALUE_NUMBER_INT -> bytes += integer(parser);
					case VALUE_NUMBER_FLOAT -> bytes += BIG_NUMBER_BYTES + parser.getStringLength() / 2;
					default -> {
						// true, false, null: shared instances
					}
				}
				// A value (scalar or a closed container) is one more element, or
				// property, of its parent.
				if (token.isScalarValue() || token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
					counts[depth]++;
				}
			}
		}
		return align(bytes);
	}

	private static long integer(JsonParser parser) {
		if (parser.getNumberType() == JsonParser.NumberType.INT) {
			int value = parser.getIntValue();
			// Integer.valueOf and Long.valueOf share -128..127.
			return (value >= -128 && value <= 127) ? 0 : NUMBER_BYTES;
		}
		if (parser.getNumberType() == JsonParser.NumberType.LONG) {
			return NUMBER_BYTES;
		}
		return BIG_NUMBER_BYTES + parser.getStringLength() / 2;
	}

	private static long object(int properties) {
		if (properties == 0) {
			return OBJECT_BYTES;
		}
		// HashMap's table: a power of two, at least 16, resized past three quarters full.
		long slots = Math.max(16, Long.highestOneBit(Math.max(1, (properties * 4L + 2) / 3 - 1)) << 1);
		return OBJECT_BYTES + align(16 + 4 * slots);
	}

	private static long array(int elements) {
		if (elements == 0) {
			return ARRAY_BYTES;
		}
		// ArrayList grows by half: up to 1.5 references per element, at least 10.
		long capacity = Math.max(10, elements + elements / 2 + 1);
		return ARRAY_BYTES + align(16 + 4 * capacity);
	}

	private static long string(String text) {
		return align(STRING_BYTES + chars(text));
	}

	/** Bytes of a string's characters: one each when all are Latin-1, else two. */
	private static long chars(String text) {
		int length = text.length();
		for (int i = 0; i < length; i++) {
			if (text.charAt(i) > 0xFF) {
				return 2L * length;
			}
		}
		return length;
	}

	private static long align(long bytes) {
		return (bytes + 7) & ~7L;
	}

	/**
	 * A text nested deeper than allowed.
	 */
	static final class TooDeepException extends RuntimeException {

		private final int maxDepth;

		private final int line;

		private final int column;

		TooDeepException(int maxDepth, int line, int column) {
			super(null, null, false, false);
			this.maxDepth = maxDepth;
			this.line = line;
			this.column = column;
		}

		int maxDepth() {
			return this.maxDepth;
		}

		int line() {
			return this.line;
		}

		int column() {
			return this.column;
		}

	}

}
