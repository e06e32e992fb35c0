package dev.safedefaults.configcache;

import java.util.List;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.ClassUtils;

/**
 * Reports the {@code config-cache} feature: the cache's bound, size and mapper, or why
 * there is no cache. Active whenever safe-defaults is, also when the feature is off or
 * Caffeine or Jackson is missing, so it must not touch their classes before it knows they
 * are there.
 */
final class ParsedConfigCacheFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "config-cache";

	static final String CAFFEINE = "com.github.benmanes.caffeine.cache.Caffeine";

	static final String JSON_MAPPER = "tools.jackson.databind.json.JsonMapper";

	private final ParsedConfigCacheProperties properties;

	private final ObjectProvider<ParsedConfigCache> caches;

	private final @Nullable ClassLoader classLoader;

	ParsedConfigCacheFeatureStatus(ParsedConfigCacheProperties properties, ObjectProvider<ParsedConfigCache> caches,
			@Nullable ClassLoader classLoader) {
		this.properties = properties;
		this.caches = caches;
		this.classLoader = classLoader;
	}

	@Override
	public FeatureStatus status() {
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE, "safe-defaults.config-cache.enabled is false");
		}
		if (!ClassUtils.isPresent(CAFFEINE, this.classLoader)) {
			return FeatureStatus.off(FEATURE,
					"Caffeine is not on the class path: add com.github.ben-manes.caffeine:caffeine");
		}
		if (!ClassUtils.isPresent(JSON_MAPPER, this.classLoader)) {
			return FeatureStatus.off(FEATURE,
					"Jackson 3 is not on the class path: add tools.jackson.core:jackson-databind");
		}
		List<String> caches = this.caches.orderedStream().map(ParsedConfigCache::describe).toList();
		if (caches.isEmpty()) {
			return FeatureStatus.off(FEATURE, "no ParsedConfigCache bean");
		}
		return FeatureStatus.applied(FEATURE, caches);
	}

}
