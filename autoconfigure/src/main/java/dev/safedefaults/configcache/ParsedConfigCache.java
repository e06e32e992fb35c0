package dev.safedefaults.configcache;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.function.Consumer;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.CacheLoader;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

/**
 * Parses configuration held as JSON text (from a config center, a database column, a
 * property) once per distinct text and target type, and hands every later caller the
 * object parsed the first time. A service of incident 4 parsed the same configuration
 * JSON on every request: 7% of its CPU.
 * <p>
 * <b>Key.</b> The target type (a {@link Class}, or a {@link TypeReference}'s
 * {@link TypeReference#getType() type}, since {@code TypeReference} instances compare by
 * identity) and the whole text, compared with {@link String#equals}: no hash stands in
 * for the text, so two texts never collide. Holding the same {@code String} instance (a
 * configuration holder) makes a hit cheapest; a text read anew costs its hashing and one
 * comparison.
 * <p>
 * <b>Values are shared.</b> Every caller of one text and type gets the same object.
 * Target types should be immutable: records, final fields, unmodifiable collections
 * (Jackson fills a {@code List} with a mutable {@code ArrayList}: copy it with
 * {@code List.copyOf} in a compact constructor). The finding
 * {@code config-cache.mutable-type} names target types with setters or public non-final
 * fields.
 * <p>
 * <b>Bounded in bytes.</b> An entry weighs an estimate of the heap its text and its
 * parsed value retain, made from the text's JSON tokens before parsing (see
 * {@link RetainedHeapEstimate}); when the total passes {@code maximumWeight} bytes,
 * Caffeine evicts the entries least likely to be used again. Measured for the worst
 * shapes (empty objects, empty arrays, small numbers, long strings) and a flood of
 * distinct texts, a full cache retains less than twice its bound. One text may be at most
 * {@code maxTextLength} characters long and nest at most {@code maxDepth} levels; beyond
 * that it is refused with a {@link ConfigParseException} before anything is built.
 * Optionally an entry unread for {@code expireAfterAccess} is dropped.
 * <p>
 * <b>Single flight.</b> Concurrent first calls for one key parse once; the others wait
 * for that result.
 * <p>
 * <b>Failures.</b> A text that does not parse into the type throws a
 * {@link ConfigParseException} that names the type, the line and the column but holds no
 * part of the text; nothing is cached, so the next call parses again. A text that is JSON
 * {@code null} returns {@code null}, not cached either.
 */
public final class ParsedConfigCache {

	/** The cache's name in metrics ({@code cache.gets{cache="parsed-config"}}). */
	public static final String CACHE_NAME = "parsed-config";

	/** The longest text one entry may have by default, in characters. */
	public static final int DEFAULT_MAX_TEXT_LENGTH = 1024 * 1024;

	/** The deepest nesting of objects and arrays one text may have by default. */
	public static final int DEFAULT_MAX_DEPTH = 64;

	static final String MAX_TEXT_LENGTH_PROPERTY = "safe-defaults.config-cache.max-text-length";

	static final String MAX_DEPTH_PROPERTY = "safe-defaults.config-cache.max-nesting-depth";

	private final JsonMapper jsonMapper;

	private final String jsonMapperOrigin;

	private final long maximumWeight;

	private final @Nullable Duration expireAfterAccess;

	private final Consumer<Type> firstParseListener;

	private final int maxTextLength;

	private final int maxDepth;

	private final LoadingCache<Key, Weighed> cache;

	/**
	 * Creates a cache with the default limits for one text.
	 * @param jsonMapper the mapper to parse with; its settings apply to every parse
	 * @param maximumWeight the most heap, in bytes, that all entries together may retain
	 * (as estimated from their JSON); must be positive
	 * @param expireAfterAccess how long an entry may go unread before it is dropped, or
	 * {@code null} to keep entries until the weight bound evicts them
	 */
	public ParsedConfigCache(JsonMapper jsonMapper, long maximumWeight, @Nullable Duration expireAfterAccess) {
		this(jsonMapper, maximumWeight, expireAfterAccess, DEFAULT_MAX_TEXT_LENGTH, DEFAULT_MAX_DEPTH);
	}

	/**
	 * Creates a cache.
	 * @param jsonMapper the mapper to parse with; its settings apply to every parse
	 * @param maximumWeight the most heap, in bytes, that all entries together may retain
	 * (as estimated from their JSON); must be positive
	 * @param expireAfterAccess how long an entry may go unread before it is dropped, or
	 * {@code null} to keep entries until the weight bound evicts them
	 * @param maxTextLength the longest text one entry may have, in characters; positive
	 * @param maxDepth the deepest nesting of objects and arrays one text may have;
	 * positive
	 */
	public ParsedConfigCache(JsonMapper jsonMapper, long maximumWeight, @Nullable Duration expireAfterAccess,
			int maxTextLength, int maxDepth) {
		this(jsonMapper, "the JsonMapper given to its constructor", maximumWeight, expireAfterAccess, maxTextLength,
				maxDepth, (type) -> {
				});
	}

	ParsedConfigCache(JsonMapper jsonMapper, String jsonMapperOrigin, long maximumWeight,
			@Nullable Duration expireAfterAccess, int maxTextLength, int maxDepth, Consumer<Type> firstParseListener) {
		Assert.notNull(jsonMapper, "'jsonMapper' must not be null");
		Assert.isTrue(maximumWeight > 0, "'maximumWeight' must be positive");
		Assert.isTrue(maxTextLength > 0, "'maxTextLength' must be positive");
		Assert.isTrue(maxDepth > 0, "'maxDepth' must be positive");
		this.maxTextLength = maxTextLength;
		this.maxDepth = maxDepth;
		Assert.isTrue(expireAfterAccess == null || (!expireAfterAccess.isNegative() && !expireAfterAccess.isZero()),
				"'expireAfterAccess' must be positive or null");
		this.jsonMapper = jsonMapper;
		this.jsonMapperOrigin = jsonMapperOrigin;
		this.maximumWeight = maximumWeight;
		this.expireAfterAccess = expireAfterAccess;
		this.firstParseListener = firstParseListener;
		Caffeine<Key, Weighed> builder = Caffeine.newBuilder()
			.maximumWeight(maximumWeight)
			.weigher((Key key, Weighed value) -> value.weight())
			.recordStats();
		if (expireAfterAccess != null) {
			builder.expireAfterAccess(expireAfterAccess);
		}
		// A LoadingCache with one loader: a hit allocates nothing but the key, and a load
		// runs inside Caffeine's per-key computation, so concurrent first calls parse
		// once.
		this.cache = builder.build(loader());
	}

	/**
	 * Returns the object parsed from a text, parsing it only on the first call for this
	 * text and type.
	 * @param <T> the target type
	 * @param text the configuration text, JSON
	 * @param type the target type, ideally immutable (a record)
	 * @return the parsed object, shared with every caller of the same text and type;
	 * {@code null} when the text is JSON {@code null}
	 * @throws ConfigParseException when the text is malformed or does not fit the type
	 */
	@SuppressWarnings("unchecked")
	public <T> @Nullable T parse(String text, Class<T> type) {
		Assert.notNull(text, "'text' must not be null");
		Assert.notNull(type, "'type' must not be null");
		return (T) value(this.cache.get(new Key(type, text)));
	}

	/**
	 * Returns the object parsed from a text into a generic type (such as
	 * {@code List<Flag>}), parsing it only on the first call for this text and type. The
	 * key is the reference's {@link TypeReference#getType() type}, so a new
	 * {@code TypeReference} instance per call still hits.
	 * @param <T> the target type
	 * @param text the configuration text, JSON
	 * @param type the target type
	 * @return the parsed object, shared with every caller of the same text and type;
	 * {@code null} when the text is JSON {@code null}
	 * @throws ConfigParseException when the text is malformed or does not fit the type
	 */
	@SuppressWarnings("unchecked")
	public <T> @Nullable T parse(String text, TypeReference<T> type) {
		Assert.notNull(text, "'text' must not be null");
		Assert.notNull(type, "'type' must not be null");
		return (T) value(this.cache.get(new Key(type.getType(), text)));
	}

	private static @Nullable Object value(@Nullable Weighed weighed) {
		return (weighed != null) ? weighed.value() : null;
	}

	/**
	 * The loader, {@link #load}: it returns {@code null} for JSON {@code null}, which
	 * Caffeine takes as "no entry" (so a JSON null is parsed again each time rather than
	 * cached). Caffeine declares that its loader may return null through a nullable type
	 * argument, which NullAway reads only in JSpecify mode (JDK 22 and later, not the JDK
	 * 17 this builds on).
	 */
	@SuppressWarnings("NullAway")
	private CacheLoader<Key, Weighed> loader() {
		return this::load;
	}

	private @Nullable Weighed load(Key key) {
		String text = key.text();
		if (text.length() > this.maxTextLength) {
			throw ConfigParseException.tooLong(key.type(), text.length(), this.maxTextLength, MAX_TEXT_LENGTH_PROPERTY);
		}
		this.firstParseListener.accept(key.type());
		try {
			long weight = RetainedHeapEstimate.of(this.jsonMapper, text, this.maxDepth);
			Object value = this.jsonMapper.readValue(text, this.jsonMapper.constructType(key.type()));
			return (value != null) ? new Weighed(value, (int) Math.min(Integer.MAX_VALUE, weight)) : null;
		}
		catch (RetainedHeapEstimate.TooDeepException ex) {
			throw ConfigParseException.tooDeep(key.type(), text.length(), ex.maxDepth(), MAX_DEPTH_PROPERTY, ex.line(),
					ex.column());
		}
		catch (RuntimeException ex) {
			// Never rethrow or chain the parser's exception: its message quotes the text.
			throw ConfigParseException.of(key.type(), text, ex);
		}
	}

	/**
	 * The Caffeine cache, for its metrics ({@code configcache.actuate}).
	 * @return the cache
	 */
	public Cache<?, ?> caffeineCache() {
		return this.cache;
	}

	/**
	 * Performs pending maintenance (evictions) now, so that sizes are exact.
	 */
	public void cleanUp() {
		this.cache.cleanUp();
	}

	/**
	 * Returns the total weight of the current entries: the heap they are estimated to
	 * retain.
	 * @return the weighted size, in bytes
	 */
	public long weightedSize() {
		return this.cache.policy().eviction().orElseThrow().weightedSize().orElse(0L);
	}

	/**
	 * Describes this cache for the {@code safedefaults} endpoint.
	 * @return one line: bound, expiry, current size and the mapper it parses with
	 */
	String describe() {
		return "cache '"
				+ CACHE_NAME + "': " + this.cache
					.estimatedSize()
				+ " entries holding " + weightedSize() + " of at most " + this.maximumWeight
				+ " bytes (estimated heap), texts of at most " + this.maxTextLength + " characters nested at most "
				+ this.maxDepth + " deep, " + ((this.expireAfterAccess != null)
						? "expire after " + this.expireAfterAccess + " unread" : "no expiry")
				+ ", parsing with " + this.jsonMapperOrigin;
	}

	/**
	 * The cache key: the resolved target type and the whole text.
	 *
	 * @param type a {@link Class} or a generic type; both compare by value
	 * @param text the text, compared with {@link String#equals}
	 */
	private record Key(Type type, String text) {
	}

	/**
	 * A parsed value and the heap its entry is estimated to retain.
	 *
	 * @param value the parsed value
	 * @param weight the estimate, in bytes
	 */
	private record Weighed(Object value, int weight) {
	}

}
