package dev.safedefaults.configcache.actuate;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.configcache.ParsedConfigCache;
import dev.safedefaults.configcache.ParsedConfigCacheAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.RequiredSearch;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code parsed-config} cache's meters, as docs/metrics.md lists them: Micrometer's
 * Caffeine meters tagged {@code cache=parsed-config} and
 * {@code cache.manager=safeDefaults}, for the starter's cache or the application's own.
 */
class ConfigCacheMetricsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, JacksonAutoConfiguration.class,
				ParsedConfigCacheAutoConfiguration.class, ConfigCacheMetricsAutoConfiguration.class));

	private final ApplicationContextRunner withMetrics = this.runner
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class));

	@Test
	void cacheMetricsAgreeWithTheCalls() {
		this.withMetrics.run((context) -> {
			ParsedConfigCache cache = context.getBean(ParsedConfigCache.class);
			cache.parse("{\"maxConnections\":5}", Connections.class);
			cache.parse("{\"maxConnections\":5}", Connections.class);
			cache.parse("{\"maxConnections\":5}", Connections.class);
			cache.parse("{\"maxConnections\":6}", Connections.class);
			cache.cleanUp();
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(meter(registry, "cache.gets").tag("result", "hit").functionCounter().count()).isEqualTo(2);
			assertThat(meter(registry, "cache.gets").tag("result", "miss").functionCounter().count()).isEqualTo(2);
			assertThat(meter(registry, "cache.size").gauge().value()).isEqualTo(2);
			assertThat(meter(registry, "cache.evictions").functionCounter().count()).isZero();
			assertThat(meter(registry, "cache.gets").tag("cache.manager", "safeDefaults").meters()).hasSize(2);
		});
	}

	@Test
	void aFailedParseIsAMissAndAFailedLoad() {
		this.withMetrics.run((context) -> {
			ParsedConfigCache cache = context.getBean(ParsedConfigCache.class);
			cache.parse("{\"maxConnections\":5}", Connections.class);
			try {
				cache.parse("{\"maxConnections\":", Connections.class);
			}
			catch (RuntimeException ex) {
				// The parse failure is the caller's; the meters count it.
			}
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(meter(registry, "cache.gets").tag("result", "miss").functionCounter().count()).isEqualTo(2);
			assertThat(meter(registry, "cache.load").tag("result", "failure").functionCounter().count()).isEqualTo(1);
			assertThat(meter(registry, "cache.load").tag("result", "success").functionCounter().count()).isEqualTo(1);
		});
	}

	@Test
	void anApplicationsOwnCacheIsMeasuredToo() {
		ParsedConfigCache own = new ParsedConfigCache(JsonMapper.builder().build(), 1024 * 1024, null);
		this.withMetrics.withBean(ParsedConfigCache.class, () -> own).run((context) -> {
			assertThat(context.getBean(ParsedConfigCache.class)).isSameAs(own);
			own.parse("{\"maxConnections\":5}", Connections.class);
			own.parse("{\"maxConnections\":5}", Connections.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(meter(registry, "cache.gets").tag("result", "hit").functionCounter().count()).isEqualTo(1);
		});
	}

	@Test
	void theOptOutRemovesTheMetersWithTheCache() {
		this.withMetrics.withPropertyValues("safe-defaults.config-cache.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ParsedConfigCacheMeterBinder.class);
			assertThat(context.getBean(MeterRegistry.class).find("cache.gets").tag("cache", "parsed-config").meters())
				.isEmpty();
		});
	}

	@Test
	void withoutMicrometerTheCacheWorksWithoutMetrics() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ParsedConfigCache.class);
			assertThat(context).doesNotHaveBean("safeDefaultsParsedConfigCacheMeterBinder");
		});
	}

	private static RequiredSearch meter(MeterRegistry registry, String name) {
		return registry.get(name).tag("cache", "parsed-config");
	}

	record Connections(int maxConnections) {
	}

}
