package dev.safedefaults.configcache.actuate;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.configcache.ParsedConfigCache;
import dev.safedefaults.configcache.ParsedConfigCacheAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The {@code parsed-config} cache's metrics, when Micrometer and Caffeine are present.
 */
@AutoConfiguration(after = ParsedConfigCacheAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass({ MeterRegistry.class, CaffeineCacheMetrics.class, Caffeine.class })
@ConditionalOnBooleanProperty(name = "safe-defaults.config-cache.enabled", matchIfMissing = true)
public final class ConfigCacheMetricsAutoConfiguration {

	@Bean
	ParsedConfigCacheMeterBinder safeDefaultsParsedConfigCacheMeterBinder(ObjectProvider<ParsedConfigCache> caches) {
		return new ParsedConfigCacheMeterBinder(caches);
	}

}
