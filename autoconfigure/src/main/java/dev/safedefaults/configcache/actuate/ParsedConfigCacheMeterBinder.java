package dev.safedefaults.configcache.actuate;

import com.github.benmanes.caffeine.cache.Cache;
import dev.safedefaults.configcache.ParsedConfigCache;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Binds the {@code parsed-config} cache's meters (Micrometer's Caffeine cache metrics).
 * It looks the cache up when the registry binds it (after every singleton exists) rather
 * than by a bean condition, which would be evaluated before the cache's bean is even
 * defined; an application's own single ParsedConfigCache bean is measured too.
 */
public class ParsedConfigCacheMeterBinder implements MeterBinder {

	/**
	 * The tag Boot's cache metrics carry besides {@code cache}: Prometheus wants every
	 * meter of one name to have the same tag keys, and Spring caches share
	 * {@code cache.gets}.
	 */
	static final Tags TAGS = Tags.of("cache.manager", "safeDefaults");

	private final ObjectProvider<ParsedConfigCache> caches;

	/**
	 * Creates the binder.
	 * @param caches the cache, looked up when the registry binds
	 */
	public ParsedConfigCacheMeterBinder(ObjectProvider<ParsedConfigCache> caches) {
		this.caches = caches;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.caches.ifUnique((cache) -> metrics(cache.caffeineCache()).bindTo(registry));
	}

	private static <K, V> CaffeineCacheMetrics<K, V, Cache<K, V>> metrics(Cache<K, V> cache) {
		return new CaffeineCacheMetrics<>(cache, ParsedConfigCache.CACHE_NAME, TAGS);
	}

}
