package dev.safedefaults.web.actuate;

import com.github.benmanes.caffeine.cache.Cache;
import dev.safedefaults.web.RememberedMisses;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Binds the {@code resource-misses} cache's meters (Micrometer's Caffeine cache metrics):
 * {@code cache.gets{result=hit}} counts the links answered from a remembered miss,
 * {@code result=miss} those passed down the resource chain (resources, and first misses);
 * {@code cache.size} the paths remembered. Looked up when the registry binds.
 */
public class RememberedMissesMeterBinder implements MeterBinder {

	/** As Boot's cache metrics: every meter of one name has the same tag keys. */
	static final Tags TAGS = Tags.of("cache.manager", "safeDefaults");

	private final ObjectProvider<RememberedMisses> misses;

	/**
	 * Creates the binder.
	 * @param misses the remembered misses, looked up when the registry binds
	 */
	public RememberedMissesMeterBinder(ObjectProvider<RememberedMisses> misses) {
		this.misses = misses;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.misses.ifUnique((remembered) -> metrics(remembered.caffeineCache()).bindTo(registry));
	}

	private static <K, V> CaffeineCacheMetrics<K, V, Cache<K, V>> metrics(Cache<K, V> cache) {
		return new CaffeineCacheMetrics<>(cache, RememberedMisses.CACHE_NAME, TAGS);
	}

}
