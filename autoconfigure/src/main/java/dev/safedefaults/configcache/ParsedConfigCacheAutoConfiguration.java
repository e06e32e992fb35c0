package dev.safedefaults.configcache;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link ParsedConfigCache} bean (incident 4: configuration JSON parsed again on
 * every request cost 7% of the CPU), the {@code config-cache.mutable-type} finding, and
 * the feature's status. Off with {@code safe-defaults.config-cache.enabled=false}.
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
	ParsedConfigCacheFeatureStatus safeDefaultsConfigCacheFeatureStatus(ParsedConfigCacheProperties properties,
			ObjectProvider<ParsedConfigCache> caches, ApplicationContext context) {
		return new ParsedConfigCacheFeatureStatus(properties, caches, context.getClassLoader());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Caffeine.class, JsonMapper.class })
	@ConditionalOnBooleanProperty(name = "safe-defaults.config-cache.enabled", matchIfMissing = true)
	static class ParsedConfigCacheConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ParsedConfigCache safeDefaultsParsedConfigCache(ParsedConfigCacheProperties properties,
				ObjectProvider<JsonMapper> jsonMappers, ObjectProvider<FindingsStore> stores) {
			// The primary JsonMapper (Boot's, with the spring.jackson.* settings);
			// several
			// without a primary fail here rather than silently parse with the wrong one.
			return withApplicationMapperIfAny(properties, jsonMappers.getIfAvailable(), stores.getIfAvailable());
		}

		private static ParsedConfigCache withApplicationMapperIfAny(ParsedConfigCacheProperties properties,
				@Nullable JsonMapper applicationMapper, @Nullable FindingsStore store) {
			JsonMapper jsonMapper = (applicationMapper != null) ? applicationMapper : JsonMapper.builder().build();
			String origin = (applicationMapper != null) ? "the application's JsonMapper bean"
					: "a default JsonMapper (the application has no JsonMapper bean)";
			return new ParsedConfigCache(jsonMapper, origin, properties.getMaximumWeight().toBytes(),
					properties.getExpireAfterAccess(), properties.getMaxTextLength(), properties.getMaxNestingDepth(),
					(store != null) ? new MutableTypeListener(store) : (type) -> {
					});
		}

	}

}
