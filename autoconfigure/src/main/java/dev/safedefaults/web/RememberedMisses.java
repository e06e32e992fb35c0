package dev.safedefaults.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The lookup paths the resource handlers' unchanging locations do not hold, all handlers
 * together, bounded by {@code safe-defaults.resource-misses.maximum-size}; one per
 * application context (a DevTools restart starts with none).
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

	private final Cache<Miss, Boolean> misses;

	private final long maximumSize;

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
	 * The Caffeine cache, for its metrics.
	 * @return the cache
	 */
	public Cache<?, ?> caffeineCache() {
		return this.misses;
	}

	String describe() {
		return "at most " + this.maximumSize + " lookup paths of at most " + MAX_PATH_LENGTH + " characters";
	}

	/** A path within one handler's mapping that its unchanging locations do not hold. */
	private record Miss(int handler, String path) {
	}

}
