package dev.safedefaults.benchmarks.configcache;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.configcache.ParsedConfigCache;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 16: does a full {@link ParsedConfigCache} retain at most twice its
 * {@code maximum-weight} in heap, whatever the shape of the JSON? For each of the worst
 * shapes (empty objects read as {@code List<Map>}, empty arrays, small numbers, long
 * strings, deep nesting, the same as {@code JsonNode}, and incident 4's records) it
 * floods a cache with distinct texts (more than each bound holds), then measures the heap
 * the cache retains: used heap after full collections, with the cache, minus without it.
 * <p>
 * Three caches side by side, each given the same flood in the same run:
 * <ul>
 * <li>{@code starter}: the starter's cache, entries weighed by the heap estimated from
 * their JSON tokens;</li>
 * <li>{@code chars}: the anti-pattern (the starter before issue 16), entries weighed by
 * their text's length, one byte standing for one character;</li>
 * <li>{@code 1000 entries}: a common hand-written bound, {@code maximumSize(1000)}.</li>
 * </ul>
 * Prints, per shape and cache, the retained heap and its ratio to the bound (goal: at
 * most 2).
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.configcache.ParsedConfigCacheMemory
 * -Dbenchmark.jvm=-Xmx3g -Dbenchmark="16 16384"} (bound in MB, characters per text).
 */
public final class ParsedConfigCacheMemory {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private ParsedConfigCacheMemory() {
	}

	public static void main(String[] args) throws Exception {
		long boundMb = (args.length > 0) ? Long.parseLong(args[0]) : 16;
		int textLength = (args.length > 1) ? Integer.parseInt(args[1]) : 16_384;
		long bound = boundMb * 1024 * 1024;
		System.out.printf(Locale.ROOT,
				"Config cache memory: bound %d MB, texts of ~%d characters, JDK %s, -Xmx %d MB%n", boundMb, textLength,
				Runtime.version(), Runtime.getRuntime().maxMemory() >> 20);
		System.out.printf(Locale.ROOT, "%-34s %-14s %12s %12s %10s %9s%n", "shape", "cache", "size", "retained MB",
				"x bound", "verdict");
		System.out.println("(size: entries, or for the starter the estimated MB it weighs its entries at)");
		for (Shape shape : shapes(textLength)) {
			for (Kind kind : Kind.values()) {
				measure(shape, kind, bound, textLength);
			}
		}
	}

	private static void measure(Shape shape, Kind kind, long bound, int textLength) {
		long before = usedAfterGc();
		Holder holder = kind.create(bound);
		// A flood of distinct texts: half as much again as a character bound would hold,
		// and
		// more than the entry bound holds.
		int texts = (int) Math.max(1_100, 3 * bound / 2 / textLength);
		for (int i = 0; i < texts; i++) {
			holder.parse(shape.text().apply(i), shape.type());
		}
		holder.cleanUp();
		long retained = usedAfterGc() - before;
		double ratio = (double) retained / bound;
		String size = (kind == Kind.STARTER) ? String.format(Locale.ROOT, "%.1f MB", holder.size() / 1048576.0)
				: String.valueOf(holder.size());
		System.out.printf(Locale.ROOT, "%-34s %-14s %12s %12.1f %10.2f %9s%n", shape.name(), kind.label, size,
				retained / 1048576.0, ratio, (kind == Kind.STARTER) ? ((ratio <= 2) ? "ok" : "OVER") : "");
		holder.clear();
	}

	private static long usedAfterGc() {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 4; i++) {
			System.gc();
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
		}
		return used;
	}

	private static List<Shape> shapes(int length) {
		Type listOfMaps = new TypeReference<List<Map<String, Object>>>() {
		}.getType();
		Type listOfLists = new TypeReference<List<List<Object>>>() {
		}.getType();
		Type listOfIntegers = new TypeReference<List<Integer>>() {
		}.getType();
		Type listOfStrings = new TypeReference<List<String>>() {
		}.getType();
		Type listOfRecords = new TypeReference<List<Pool>>() {
		}.getType();
		List<Shape> shapes = new ArrayList<>();
		shapes.add(new Shape("[{},{},…] as List<Map>", listOfMaps,
				(i) -> "[{\"n\":" + i + "}" + ",{}".repeat(length / 3) + "]"));
		shapes.add(new Shape("[{},{},…] as JsonNode", JsonNode.class,
				(i) -> "[{\"n\":" + i + "}" + ",{}".repeat(length / 3) + "]"));
		shapes.add(new Shape("[[],[],…] as List<List>", listOfLists,
				(i) -> "[[" + i + "]" + ",[]".repeat(length / 3) + "]"));
		shapes
			.add(new Shape("[0,0,…] as List<Integer>", listOfIntegers, (i) -> "[" + i + ",0".repeat(length / 2) + "]"));
		shapes.add(new Shape("[1000,…] as List<Integer>", listOfIntegers,
				(i) -> "[" + i + ",1000".repeat(length / 5) + "]"));
		shapes.add(new Shape("[\"\",\"\",…] as List<String>", listOfStrings,
				(i) -> "[\"" + i + "\"" + ",\"\"".repeat(length / 3) + "]"));
		shapes.add(new Shape("one long string", listOfStrings, (i) -> "[\"" + i + "x".repeat(length) + "\"]"));
		shapes.add(new Shape("one long non-Latin-1 string", listOfStrings,
				(i) -> "[\"" + i + "\u20ac".repeat(length) + "\"]"));
		shapes.add(new Shape("[{\"k\":0},…] as List<Map>", listOfMaps,
				(i) -> "[{\"n\":" + i + "}" + ",{\"k\":0}".repeat(length / 8) + "]"));
		shapes.add(new Shape("nested 60 deep, repeated", Object.class, (i) -> {
			String nested = "[".repeat(60) + "]".repeat(60);
			return "[" + i + ("," + nested).repeat(length / 121) + "]";
		}));
		shapes.add(new Shape("records (incident 4's shape)", listOfRecords, (i) -> "[" + "{\"name\":\"pool-" + i
				+ "\",\"size\":" + i + "}" + ",{\"name\":\"orders\",\"size\":12}".repeat(length / 30) + "]"));
		return shapes;
	}

	/** A pool's settings: a record, as configuration should be. */
	public record Pool(String name, int size) {
	}

	private record Shape(String name, Type type, IntFunction<String> text) {
	}

	private enum Kind {

		STARTER("starter"), CHARS("chars"), ENTRIES("1000 entries");

		private final String label;

		Kind(String label) {
			this.label = label;
		}

		Holder create(long bound) {
			return switch (this) {
				case STARTER -> new StarterHolder(new ParsedConfigCache(MAPPER, bound, null, 64 * 1024 * 1024, 64));
				case CHARS -> new CaffeineHolder(Caffeine.newBuilder()
					.maximumWeight(bound)
					.weigher((Key key, Object value) -> key.text().length())
					.build());
				case ENTRIES -> new CaffeineHolder(Caffeine.newBuilder().maximumSize(1000).build());
			};
		}

	}

	private interface Holder {

		void parse(String text, Type type);

		void cleanUp();

		long size();

		void clear();

	}

	private static final class StarterHolder implements Holder {

		private ParsedConfigCache cache;

		private long parsed;

		StarterHolder(ParsedConfigCache cache) {
			this.cache = cache;
		}

		@Override
		public void parse(String text, Type type) {
			this.cache.parse(text, new TypeReference<Object>() {
				@Override
				public Type getType() {
					return type;
				}
			});
			this.parsed++;
		}

		@Override
		public void cleanUp() {
			this.cache.cleanUp();
		}

		@Override
		public long size() {
			return this.cache.weightedSize();
		}

		@Override
		public void clear() {
			this.cache = null;
		}

	}

	private record Key(Type type, String text) {
	}

	private static final class CaffeineHolder implements Holder {

		private Cache<Key, Object> cache;

		CaffeineHolder(Cache<Key, Object> cache) {
			this.cache = cache;
		}

		@Override
		public void parse(String text, Type type) {
			this.cache.get(new Key(type, text), (key) -> MAPPER.readValue(text, MAPPER.constructType(type)));
		}

		@Override
		public void cleanUp() {
			this.cache.cleanUp();
		}

		@Override
		public long size() {
			return this.cache.estimatedSize();
		}

		@Override
		public void clear() {
			this.cache.invalidateAll();
			this.cache = null;
		}

	}

}
