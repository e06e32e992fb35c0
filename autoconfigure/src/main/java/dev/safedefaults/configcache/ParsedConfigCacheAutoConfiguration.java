package dev.safedefaults.configcache;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * The {@link ParsedConfigCache} bean (incident 4: configuration JSON parsed again on
 * every request cost 7% of the CPU), its {@code parsed-config} cache metrics when
 * Micrometer is present, the {@code config-cache.mutable-type} finding, and the
 * feature's status. Off with {@code safe-defaults.config-cache.enabled=false}.
 * <p>
 * Ordered after Boot's Jackson auto-configuration so that the cache parses with the
 * application's own {@link JsonMapper}, whose {@code spring.jackson.*} settings then
 * apply.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class,
		afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(ParsedConfigCacheProperties.class)
public final class ParsedConfigCacheAutoConfiguration {

	@Bean
	ParsedConfigCacheFeatureStatusReporter parsedConfigCacheFeatureStatusReporter(
			ParsedConfigCacheProperties properties, ObjectProvider<ParsedConfigCache> caches,
			ApplicationContext context) {
		return new ParsedConfigCacheFeatureStatusReporter(properties, caches, context.getClassLoader());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Caffeine.class, JsonMapper.class })
	@ConditionalOnBooleanProperty(name = "safe-defaults.config-cache.enabled", matchIfMissing = true)
	static class ParsedConfigCacheConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ParsedConfigCache parsedConfigCache(ParsedConfigCacheProperties properties,
				ObjectProvider<JsonMapper> jsonMappers, ObjectProvider<FindingsStore> stores) {
			long maximumWeight = maximumWeight(properties.getMaximumWeight());
			Duration expireAfterAccess = expireAfterAccess(properties.getExpireAfterAccess());
			// The primary JsonMapper (Boot's, with the spring.jackson.* settings); several
			// without a primary fail here rather than silently parse with the wrong one.
			JsonMapper applicationMapper = jsonMappers.getIfAvailable();
			JsonMapper jsonMapper = (applicationMapper != null) ? applicationMapper : JsonMapper.builder().build();
			String origin = (applicationMapper != null) ? "the application's JsonMapper bean"
					: "a default JsonMapper (the application has no JsonMapper bean)";
			FindingsStore store = stores.getIfAvailable();
			return new ParsedConfigCache(jsonMapper, origin, maximumWeight, expireAfterAccess,
					(store != null) ? new MutableTypeFindings(store) : (type) -> {
					});
		}

		private static long maximumWeight(DataSize maximumWeight) {
			if (maximumWeight == null || maximumWeight.toBytes() <= 0) {
				throw new InvalidConfigurationPropertyValueException("safe-defaults.config-cache.maximum-weight",
						maximumWeight, "Must be positive: the most text the cache may hold, in characters "
								+ "(one byte counts as one character), such as 64MB");
			}
			return maximumWeight.toBytes();
		}

		private static Duration expireAfterAccess(Duration expireAfterAccess) {
			if (expireAfterAccess != null && (expireAfterAccess.isZero() || expireAfterAccess.isNegative())) {
				throw new InvalidConfigurationPropertyValueException("safe-defaults.config-cache.expire-after-access",
						expireAfterAccess, "Must be a positive duration, such as 1h, or not set to keep entries "
								+ "until the weight bound evicts them");
			}
			return expireAfterAccess;
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass({ MeterRegistry.class, CaffeineCacheMetrics.class })
		static class ParsedConfigCacheMetricsConfiguration {

			/**
			 * The tag Boot's cache metrics carry besides {@code cache}: Prometheus wants every
			 * meter of one name to have the same tag keys, and Spring caches share
			 * {@code cache.gets}.
			 */
			static final Tags TAGS = Tags.of("cache.manager", "safeDefaults");

			/**
			 * Binds the cache's meters. It looks the cache up when the registry binds it
			 * (after every singleton exists) rather than by a bean condition, which would
			 * be evaluated before the cache's bean is even defined; an application's own
			 * single ParsedConfigCache bean is measured too.
			 */
			@Bean
			MeterBinder parsedConfigCacheMeterBinder(ObjectProvider<ParsedConfigCache> caches) {
				return (registry) -> caches.ifUnique((cache) -> metrics(cache.caffeineCache()).bindTo(registry));
			}

			private static <K, V> CaffeineCacheMetrics<K, V, Cache<K, V>> metrics(Cache<K, V> cache) {
				return new CaffeineCacheMetrics<>(cache, ParsedConfigCache.CACHE_NAME, TAGS);
			}

		}

	}

}
