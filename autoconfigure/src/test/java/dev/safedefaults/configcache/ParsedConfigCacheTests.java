package dev.safedefaults.configcache;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.stats.CacheStats;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

class ParsedConfigCacheTests {

	private static final String SECRET = "hunter2-s3cr3t";

	private final List<Type> firstParses = new ArrayList<>();

	private final ParsedConfigCache cache = new ParsedConfigCache(JsonMapper.builder().build(), "a test mapper",
			64 * 1024 * 1024, null, 4096, 8, this.firstParses::add);

	@Test
	void aSecondCallWithAnEqualTextReturnsTheSameObjectWithoutParsing() {
		Pool first = this.cache.parse("{\"name\":\"orders\",\"size\":10}", Pool.class);
		Pool second = this.cache.parse(new String("{\"name\":\"orders\",\"size\":10}"), Pool.class);
		assertThat(first).isEqualTo(new Pool("orders", 10));
		assertThat(second).isSameAs(first);
		assertThat(stats().missCount()).isEqualTo(1);
		assertThat(stats().hitCount()).isEqualTo(1);
		assertThat(stats().loadCount()).isEqualTo(1);
	}

	@Test
	void distinctTextsAreDistinctEntries() {
		this.cache.parse("{\"name\":\"orders\",\"size\":10}", Pool.class);
		this.cache.parse("{\"name\":\"orders\",\"size\":11}", Pool.class);
		assertThat(this.cache.caffeineCache().estimatedSize()).isEqualTo(2);
		assertThat(stats().missCount()).isEqualTo(2);
	}

	@Test
	void distinctTypesForTheSameTextAreDistinctEntries() {
		String text = "{\"name\":\"orders\",\"size\":10}";
		Pool pool = this.cache.parse(text, Pool.class);
		Limits limits = this.cache.parse(text, Limits.class);
		assertThat(pool).isEqualTo(new Pool("orders", 10));
		assertThat(limits).isEqualTo(new Limits("orders", 10));
		assertThat(this.cache.caffeineCache().estimatedSize()).isEqualTo(2);
		assertThat(stats().missCount()).isEqualTo(2);
		assertThat(stats().hitCount()).isZero();
	}

	@Test
	void aNewTypeReferenceInstanceForTheSameTypeHits() {
		String text = "[{\"name\":\"a\",\"size\":1},{\"name\":\"b\",\"size\":2}]";
		List<Pool> first = this.cache.parse(text, new TypeReference<List<Pool>>() {
		});
		List<Pool> second = this.cache.parse(text, new TypeReference<List<Pool>>() {
		});
		assertThat(first).containsExactly(new Pool("a", 1), new Pool("b", 2));
		assertThat(second).isSameAs(first);
		assertThat(stats().hitCount()).isEqualTo(1);
	}

	@Test
	void genericTypesWithDifferentArgumentsAreDistinctEntries() {
		String text = "[{\"name\":\"a\",\"size\":1}]";
		List<Pool> pools = this.cache.parse(text, new TypeReference<List<Pool>>() {
		});
		List<Limits> limits = this.cache.parse(text, new TypeReference<List<Limits>>() {
		});
		assertThat(pools).containsExactly(new Pool("a", 1));
		assertThat(limits).containsExactly(new Limits("a", 1));
		assertThat(stats().missCount()).isEqualTo(2);
	}

	@Test
	void theWeightBoundHoldsUnderAFloodOfDistinctTexts() {
		long maximumWeight = 100_000;
		ParsedConfigCache small = new ParsedConfigCache(JsonMapper.builder().build(), maximumWeight, null);
		for (int i = 0; i < 100_000; i++) {
			String text = "{\"name\":\"pool-" + i + "\",\"size\":" + i + "}";
			assertThat(small.parse(text, Pool.class).size()).isEqualTo(i);
		}
		small.cleanUp();
		assertThat(small.weightedSize()).isPositive().isLessThanOrEqualTo(maximumWeight);
		assertThat(small.caffeineCache().estimatedSize()).isLessThan(1_000);
		assertThat(small.caffeineCache().stats().evictionCount()).isGreaterThan(99_000);
	}

	@Test
	void anEntryWeighsTheHeapItsJsonRetainsNotItsLength() {
		// Three characters of text per empty object, ~70 bytes of heap each once parsed.
		String objects = "[" + "{},".repeat(999) + "{}]";
		String numbers = "[" + "1,".repeat(999) + "1]";
		ParsedConfigCache objectsCache = new ParsedConfigCache(JsonMapper.builder().build(), 1 << 30, null);
		objectsCache.parse(objects, new TypeReference<List<java.util.Map<String, Object>>>() {
		});
		objectsCache.cleanUp();
		ParsedConfigCache numbersCache = new ParsedConfigCache(JsonMapper.builder().build(), 1 << 30, null);
		numbersCache.parse(numbers, new TypeReference<List<Integer>>() {
		});
		numbersCache.cleanUp();
		assertThat(objectsCache.weightedSize()).isGreaterThan(20L * objects.length());
		assertThat(numbersCache.weightedSize()).isLessThan(10L * numbers.length());
	}

	@Test
	void aTextLongerThanTheLimitIsRefusedNamingTheProperty() {
		String text = "[\"" + SECRET + "x".repeat(5000) + "\"]";
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(text, List.class))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains("longer than 4096 characters",
						"safe-defaults.config-cache.max-text-length", text.length() + " characters");
				holdsNoSecret(ex);
			});
		assertThat(this.firstParses).isEmpty();
		assertThat(stats().loadFailureCount()).isEqualTo(1);
	}

	@Test
	void aTextNestedDeeperThanTheLimitIsRefusedNamingThePropertyAndWhere() {
		String eight = "[".repeat(8) + "]".repeat(8);
		assertThat(this.cache.parse(eight, List.class)).hasSize(1);
		String nine = "[".repeat(9) + "]".repeat(9);
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(nine, List.class))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains("deeper than 8 levels",
						"safe-defaults.config-cache.max-nesting-depth", "line 1, column 10");
				assertThat(ex.getLine()).isEqualTo(1);
			});
	}

	@Test
	void malformedTextFailsNamingTypeLineAndColumn() {
		String text = "{\n  \"name\": \"" + SECRET + "\",\n  \"size\": 1O\n}";
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(text, Pool.class))
			.satisfies((ex) -> {
				assertThat(ex.getTargetType()).isEqualTo(Pool.class.getTypeName());
				assertThat(ex.getLine()).isEqualTo(3);
				assertThat(ex.getColumn()).isPositive();
				assertThat(ex.getMessage()).contains(Pool.class.getName(), "malformed JSON",
						"at line 3, column " + ex.getColumn(), text.length() + " characters");
			});
	}

	@Test
	void noPartOfAMalformedTextIsInTheExceptionItsCausesOrItsStackTrace() {
		String text = "{\n  \"name\": \"" + SECRET + "\",\n  \"size\": " + SECRET + "\n}";
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(text, Pool.class))
			.satisfies(ParsedConfigCacheTests::holdsNoSecret);
	}

	@Test
	void aTypeMismatchFailsNamingTheTypeAndHoldsNoPartOfTheText() {
		String text = "{\"name\":\"orders\",\"size\":\"" + SECRET + "\"}";
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(text, Pool.class))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains(Pool.class.getName(), "does not match the type",
						"at line 1, column");
				holdsNoSecret(ex);
			});
	}

	@Test
	void anUnknownPropertyFailsWithoutNamingIt() {
		String text = "{\"name\":\"orders\",\"size\":1,\"" + SECRET + "\":true}";
		JsonMapper strict = JsonMapper.builder()
			.enable(tools.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.build();
		ParsedConfigCache strictCache = new ParsedConfigCache(strict, 1024, null);
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> strictCache.parse(text, Pool.class))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains("a property the type does not have");
				holdsNoSecret(ex);
			});
	}

	@Test
	void aValueTheConstructorRejectsHoldsNoPartOfTheText() {
		String text = "{\"value\":\"" + SECRET + "\"}";
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(text, Validated.class))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).contains(Validated.class.getName(), "rejected");
				holdsNoSecret(ex);
			});
	}

	@Test
	void anEmptyTextFailsSayingItIsEmpty() {
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(" ", Pool.class))
			.withMessageContaining("an empty text");
	}

	@Test
	void aFailedTextIsNotCachedAndIsParsedAgainOnTheNextCall() {
		String text = "{\"name\": oops}";
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(text, Pool.class));
		assertThatExceptionOfType(ConfigParseException.class).isThrownBy(() -> this.cache.parse(text, Pool.class));
		assertThat(stats().loadFailureCount()).isEqualTo(2);
		assertThat(stats().missCount()).isEqualTo(2);
		this.cache.cleanUp();
		assertThat(this.cache.caffeineCache().estimatedSize()).isZero();
	}

	@Test
	void jsonNullIsReturnedAndNotCached() {
		assertThat(this.cache.parse("null", Pool.class)).isNull();
		assertThat(this.cache.parse("null", Pool.class)).isNull();
		assertThat(stats().loadCount()).isEqualTo(2);
		assertThat(this.cache.caffeineCache().estimatedSize()).isZero();
	}

	@Test
	void concurrentFirstCallsForOneKeyParseOnce() throws Exception {
		int threads = 8;
		Counted.constructed.set(0);
		Counted.entered = new CountDownLatch(1);
		Counted.release = new CountDownLatch(1);
		String text = "{\"name\":\"orders\"}";
		CyclicBarrier start = new CyclicBarrier(threads);
		List<Thread> workers = new CopyOnWriteArrayList<>();
		ExecutorService executor = Executors.newFixedThreadPool(threads, (runnable) -> {
			Thread thread = new Thread(runnable);
			workers.add(thread);
			return thread;
		});
		try {
			List<Future<Counted>> results = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				results.add(executor.submit(() -> {
					start.await();
					return this.cache.parse(text, Counted.class);
				}));
			}
			assertThat(Counted.entered.await(30, TimeUnit.SECONDS)).isTrue();
			// Hold the first parse until every other thread waits for it inside the
			// cache.
			await().atMost(Duration.ofSeconds(30))
				.until(() -> workers.size() == threads && workers.stream()
					.filter((worker) -> worker.getState() == Thread.State.BLOCKED
							|| worker.getState() == Thread.State.WAITING)
					.count() == threads - 1);
			Counted.release.countDown();
			List<Counted> parsed = new ArrayList<>();
			for (Future<Counted> result : results) {
				parsed.add(result.get(30, TimeUnit.SECONDS));
			}
			assertThat(Counted.constructed).hasValue(1);
			assertThat(parsed).hasSize(threads).allSatisfy((value) -> assertThat(value).isSameAs(parsed.get(0)));
			assertThat(stats().loadCount()).isEqualTo(1);
		}
		finally {
			Counted.release.countDown();
			executor.shutdownNow();
		}
	}

	@Test
	void theMappersSettingsApply() {
		JsonMapper snakeCase = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
		ParsedConfigCache snakeCaseCache = new ParsedConfigCache(snakeCase, 1024, null);
		assertThat(snakeCaseCache.parse("{\"max_connections\":5}", Connections.class).maxConnections()).isEqualTo(5);
	}

	@Test
	void theTypeListenerIsToldOfEveryLoadButNotOfAHit() {
		this.cache.parse("{\"name\":\"a\",\"size\":1}", Pool.class);
		this.cache.parse("{\"name\":\"b\",\"size\":2}", Pool.class);
		this.cache.parse("{\"name\":\"b\",\"size\":2}", Pool.class);
		this.cache.parse("{\"name\":\"b\",\"size\":2}", Limits.class);
		// Called per load; the mutable-type listener keeps the first of each type (next
		// test).
		assertThat(this.firstParses).containsExactly(Pool.class, Pool.class, Limits.class);
	}

	@Test
	void aMutableTypeIsReportedOnceAndAnotherMutableTypeAgain() {
		FindingsStore store = new FindingsStore(List.of());
		ParsedConfigCache reporting = new ParsedConfigCache(JsonMapper.builder().build(), "a test mapper",
				64 * 1024 * 1024, null, 4096, 8, new MutableTypeListener(store));
		reporting.parse("{\"name\":\"a\",\"size\":1}", MutablePool.class);
		assertThat(store.findings()).extracting(Finding::subject).containsExactly(MutablePool.class.getTypeName());
		// A report is a publication into the store: with the source cleared, a second one
		// would show.
		store.clear(MutableTypeListener.SOURCE);
		reporting.parse("{\"name\":\"b\",\"size\":2}", MutablePool.class);
		assertThat(reporting.caffeineCache().stats().loadCount()).isEqualTo(2);
		assertThat(store.findings()).isEmpty();
		reporting.parse("{\"name\":\"b\",\"size\":2}", MutableLimits.class);
		assertThat(store.findings()).extracting(Finding::subject)
			.containsExactlyInAnyOrder(MutablePool.class.getTypeName(), MutableLimits.class.getTypeName());
	}

	@Test
	void expireAfterAccessIsApplied() {
		ParsedConfigCache expiring = new ParsedConfigCache(JsonMapper.builder().build(), 1024, Duration.ofMinutes(5));
		assertThat(expiring.caffeineCache().policy().expireAfterAccess())
			.hasValueSatisfying((policy) -> assertThat(policy.getExpiresAfter()).isEqualTo(Duration.ofMinutes(5)));
		assertThat(this.cache.caffeineCache().policy().expireAfterAccess()).isEmpty();
	}

	@Test
	void aNonPositiveBoundIsRejected() {
		JsonMapper mapper = JsonMapper.builder().build();
		assertThatIllegalArgumentException().isThrownBy(() -> new ParsedConfigCache(mapper, 0, null));
		assertThatIllegalArgumentException().isThrownBy(() -> new ParsedConfigCache(mapper, 10, Duration.ZERO));
	}

	@Test
	void theDescriptionNamesBoundSizeAndMapper() {
		this.cache.parse("{\"name\":\"a\",\"size\":1}", Pool.class);
		this.cache.cleanUp();
		assertThat(this.cache.describe()).contains("'parsed-config'", "1 entries",
				"of at most 67108864 bytes (estimated heap)", "at most 4096 characters", "no expiry", "a test mapper");
	}

	private CacheStats stats() {
		return this.cache.caffeineCache().stats();
	}

	private static void holdsNoSecret(Throwable ex) {
		assertThat(ex.getCause()).isNull();
		assertThat(ex.getSuppressed()).isEmpty();
		StringWriter trace = new StringWriter();
		ex.printStackTrace(new PrintWriter(trace));
		assertThat(trace.toString()).doesNotContain(SECRET).doesNotContain("hunter2");
		assertThat(ex.toString()).doesNotContain(SECRET);
	}

	record Pool(String name, int size) {
	}

	record Limits(String name, int size) {
	}

	static class MutablePool {

		public String name;

		public int size;

	}

	static class MutableLimits {

		public String name;

		public int size;

	}

	record Connections(int maxConnections) {
	}

	record Validated(String value) {

		Validated {
			if (!value.startsWith("ok")) {
				throw new IllegalArgumentException("not ok: " + value);
			}
		}

	}

	record Counted(String name) {

		static final AtomicInteger constructed = new AtomicInteger();

		static volatile CountDownLatch entered = new CountDownLatch(1);

		static volatile CountDownLatch release = new CountDownLatch(0);

		Counted {
			constructed.incrementAndGet();
			entered.countDown();
			try {
				release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
