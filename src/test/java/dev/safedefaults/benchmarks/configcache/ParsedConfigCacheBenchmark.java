package dev.safedefaults.benchmarks.configcache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.configcache.ParsedConfigCache;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Incident 4: a configuration JSON array parsed again on every request (7% of the CPU).
 * Compares, for one ~2 KB array of 20 objects read into records:
 * <ul>
 * <li>{@code parsePerCall}: the anti-pattern, {@code JsonMapper.readValue} per call;</li>
 * <li>{@code starterCacheSameString}: {@link ParsedConfigCache} given the same
 * {@code String} instance each call (a configuration holder): its hash is cached and
 * equality is an identity check;</li>
 * <li>{@code starterCacheFreshString}: the cache given a new, equal {@code String} each
 * call (text read anew): hashing and a full comparison are paid, and so is building the
 * string, which {@code freshStringOnly} measures alone;</li>
 * <li>{@code handWrittenMap*}: the best hand-written cache, a {@code ConcurrentHashMap}
 * from text to parsed value, with no bound, no metrics and one type only.</li>
 * </ul>
 * {@link OneThread} and {@link FourThreads} run the same methods.
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark="ParsedConfigCacheBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s"}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public abstract class ParsedConfigCacheBenchmark {

	/** One route of a gateway's configuration: the kind of object incident 4 parsed. */
	public record Route(String id, String path, String upstream, int timeoutMillis, int retries, boolean enabled) {
	}

	private static final TypeReference<List<Route>> ROUTES = new TypeReference<>() {
	};

	private final JsonMapper jsonMapper = JsonMapper.builder().build();

	private final ParsedConfigCache cache = new ParsedConfigCache(this.jsonMapper, 64L * 1024 * 1024, null);

	private final ConcurrentHashMap<String, List<Route>> handWrittenMap = new ConcurrentHashMap<>();

	private String text;

	private byte[] textBytes;

	@Setup
	public void setUp() {
		List<Route> routes = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			routes.add(
					new Route("r" + i, "/api/s" + i + "/**", "http://s" + i + ":80", 1000 + i * 50, i % 4, i % 5 != 0));
		}
		this.text = this.jsonMapper.writeValueAsString(routes);
		this.textBytes = this.text.getBytes(StandardCharsets.UTF_8);
		if (this.text.length() < 1800 || this.text.length() > 2300) {
			throw new IllegalStateException("The configuration should be about 2 KB, is " + this.text.length());
		}
		// Both caches are filled with the holder's own instance, as a configuration
		// holder
		// would: a same-instance hit is then an identity check, a fresh text compares in
		// full.
		if (!this.cache.parse(this.text, ROUTES).equals(routes) || !handWrittenMapSameString().equals(routes)) {
			throw new IllegalStateException("The caches parsed something else");
		}
	}

	/** The text as a service reading it anew would hold it: decoded into a new String. */
	private String freshText() {
		return new String(this.textBytes, StandardCharsets.UTF_8);
	}

	@Benchmark
	public List<Route> parsePerCall() {
		return this.jsonMapper.readValue(this.text, ROUTES);
	}

	@Benchmark
	public List<Route> starterCacheSameString() {
		return this.cache.parse(this.text, ROUTES);
	}

	@Benchmark
	public List<Route> starterCacheFreshString() {
		return this.cache.parse(freshText(), ROUTES);
	}

	@Benchmark
	public List<Route> handWrittenMapSameString() {
		return this.handWrittenMap.computeIfAbsent(this.text, (text) -> this.jsonMapper.readValue(text, ROUTES));
	}

	@Benchmark
	public List<Route> handWrittenMapFreshString() {
		return this.handWrittenMap.computeIfAbsent(freshText(), (text) -> this.jsonMapper.readValue(text, ROUTES));
	}

	@Benchmark
	public String freshStringOnly() {
		return freshText();
	}

	@Threads(1)
	public static class OneThread extends ParsedConfigCacheBenchmark {

	}

	@Threads(4)
	public static class FourThreads extends ParsedConfigCacheBenchmark {

	}

}
