package dev.safedefaults.web;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * What the resource handlers' unchanging locations do not hold, all handlers together,
 * bounded by {@code safe-defaults.resource-misses.maximum-size}; one per application
 * context (a DevTools restart starts with none), and, per thread, the last lookup path
 * asked with its answer. Two kinds of entry:
 * <ul>
 * <li>a path within a handler's mapping that its unchanging locations lack (learnt by its
 * {@link MissRememberingResourceResolver});</li>
 * <li>a whole lookup path asked of one {@code ResourceUrlProvider}, with the patterns
 * that provider may skip for it: those it does not match, and those whose handler's
 * locations, all unchanging, lack it ({@link MissSkippingPathMatcher}). Each provider has
 * its own entries: two providers may map the same pattern to different handlers, so what
 * one learnt is never the other's answer (issue 43).</li>
 * </ul>
 */
public final class RememberedMisses {

	/** The cache's name in the metrics ({@code cache=resource-misses}). */
	public static final String CACHE_NAME = "resource-misses";

	/**
	 * The longest lookup path remembered, in characters: a longer one (a crafted or
	 * generated URL) is asked for every time, so that no entry holds more than a few
	 * kilobytes and the entry count bounds the memory.
	 */
	static final int MAX_PATH_LENGTH = 2048;

	private final Cache<Object, Object> misses;

	private final long maximumSize;

	/**
	 * Each thread's last lookup path and what is skipped for it: see {@link #skippedFor}.
	 */
	private final ThreadLocal<LastLookup> lastLookup = new ThreadLocal<>();

	private final AtomicInteger providers = new AtomicInteger();

	RememberedMisses(long maximumSize) {
		this.maximumSize = maximumSize;
		this.misses = Caffeine.newBuilder().maximumSize(maximumSize).recordStats().build();
	}

	boolean isRemembered(int handler, String path) {
		return this.misses.getIfPresent(new Miss(handler, path)) != null;
	}

	/**
	 * Remembers a miss, unless its path is longer than {@link #MAX_PATH_LENGTH}.
	 * @param handler the handler's number
	 * @param path the lookup path its unchanging locations do not hold
	 * @return whether it is remembered
	 */
	boolean remember(int handler, String path) {
		if (path.length() > MAX_PATH_LENGTH) {
			return false;
		}
		this.misses.put(new Miss(handler, path), Boolean.TRUE);
		return true;
	}

	/**
	 * A number for one more {@code ResourceUrlProvider}, under which its skips are kept.
	 * @return the provider's number
	 */
	int newProvider() {
		return this.providers.getAndIncrement();
	}

	/**
	 * Whether a pattern of a provider may be skipped for a lookup path: it does not match
	 * it, or the provider's handler for it has locations that lack it for ever.
	 * @param provider the provider's number ({@link #newProvider()})
	 * @param pattern a pattern of the provider
	 * @param lookupPath the lookup path it is asked for
	 * @return {@code true} when remembered as skipped
	 */
	boolean isSkipped(int provider, String pattern, String lookupPath) {
		return skippedFor(provider, lookupPath).contains(pattern);
	}

	/**
	 * The patterns remembered as skipped for a lookup path. {@code ResourceUrlProvider}
	 * asks its matcher once per pattern for the same lookup path, one after the other on
	 * one thread, so each thread keeps the last path it asked with its answer and the
	 * cache is read once per link instead of once per pattern. A kept answer can only
	 * lack a pattern learnt since (a pattern is never skipped wrongly: what is skipped
	 * stays true), and the pattern is then matched as if it were not remembered.
	 */
	private Set<?> skippedFor(int provider, String lookupPath) {
		if (lookupPath.length() > MAX_PATH_LENGTH) {
			// Never remembered, and not kept either.
			return Set.of();
		}
		LastLookup last = this.lastLookup.get();
		if (last != null && last.provider() == provider && last.path().equals(lookupPath)) {
			return last.skipped();
		}
		Set<?> skipped = (this.misses.getIfPresent(new LookupPath(provider, lookupPath)) instanceof Set<?> known)
				? known : Set.of();
		this.lastLookup.set(new LastLookup(provider, lookupPath, skipped));
		return skipped;
	}

	/**
	 * Remembers that a pattern of a provider may be skipped for a lookup path, unless the
	 * path is longer than {@link #MAX_PATH_LENGTH}.
	 * @param provider the provider's number
	 * @param pattern a pattern of the provider
	 * @param lookupPath the lookup path
	 */
	void skip(int provider, String pattern, String lookupPath) {
		if (lookupPath.length() <= MAX_PATH_LENGTH) {
			Object skipped = this.misses.asMap()
				.merge(new LookupPath(provider, lookupPath), Set.of(pattern), RememberedMisses::union);
			this.lastLookup.set(new LastLookup(provider, lookupPath, (Set<?>) skipped));
		}
	}

	private static Object union(Object known, Object added) {
		Set<Object> union = new HashSet<>((Set<?>) known);
		union.addAll((Set<?>) added);
		return Set.copyOf(union);
	}

	/**
	 * The Caffeine cache, for its metrics.
	 * @return the cache
	 */
	public Cache<?, ?> caffeineCache() {
		return this.misses;
	}

	String describe() {
		return "at most " + this.maximumSize
				+ " entries (one per lookup path and provider, one per miss of a handler), " + "paths of at most "
				+ MAX_PATH_LENGTH + " characters";
	}

	/** A path within one handler's mapping that its unchanging locations do not hold. */
	private record Miss(int handler, String path) {
	}

	/**
	 * A lookup path asked of one provider, whose entry holds the patterns that provider
	 * may skip for it.
	 */
	private record LookupPath(int provider, String path) {
	}

	/** A thread's last lookup path, its provider and the patterns skipped for it then. */
	private record LastLookup(int provider, String path, Set<?> skipped) {
	}

}
