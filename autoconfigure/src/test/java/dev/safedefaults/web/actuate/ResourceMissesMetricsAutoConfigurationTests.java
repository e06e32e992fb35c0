package dev.safedefaults.web.actuate;

import com.github.benmanes.caffeine.cache.Cache;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.web.RememberedMisses;
import dev.safedefaults.web.ResourceMissesAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.RequiredSearch;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The remembered misses' meters, as docs/metrics.md lists them: Micrometer's Caffeine
 * meters tagged {@code cache=resource-misses} and {@code cache.manager=safeDefaults},
 * reading the cache the resource chain asks (how the page renders fill it:
 * {@code RenderedPagesTests}).
 */
class ResourceMissesMetricsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				ResourceMissesAutoConfiguration.class, ResourceMissesMetricsAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.enabled=false");

	private final WebApplicationContextRunner withMetrics = this.runner
		.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class));

	@Test
	void theMetersCountTheLookUpsAnsweredFromTheRememberedMissesAndThoseThatWentOn() {
		this.withMetrics.run((context) -> {
			Cache<Object, Object> cache = caffeine(context.getBean(RememberedMisses.class));
			cache.getIfPresent("/owners/1");
			cache.put("/owners/1", Boolean.TRUE);
			cache.getIfPresent("/owners/1");
			cache.getIfPresent("/owners/1");
			cache.cleanUp();
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(meter(registry, "cache.gets").tag("result", "hit").functionCounter().count()).isEqualTo(2);
			assertThat(meter(registry, "cache.gets").tag("result", "miss").functionCounter().count()).isEqualTo(1);
			assertThat(meter(registry, "cache.size").gauge().value()).isEqualTo(1);
			assertThat(meter(registry, "cache.evictions").functionCounter().count()).isZero();
			assertThat(meter(registry, "cache.gets").tag("cache.manager", "safeDefaults").meters()).hasSize(2);
		});
	}

	@Test
	void theOptOutRemovesTheMetersWithTheRememberedMisses() {
		this.withMetrics.withPropertyValues("safe-defaults.resource-misses.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(RememberedMissesMeterBinder.class);
			assertThat(context.getBean(MeterRegistry.class).find("cache.gets").tag("cache", "resource-misses").meters())
				.isEmpty();
		});
	}

	@Test
	void withoutMicrometerMissesAreRememberedWithoutMeters() {
		this.runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RememberedMisses.class)
				.doesNotHaveBean(RememberedMissesMeterBinder.class));
	}

	@Test
	void aNonWebApplicationHasNoMeters() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
					ResourceMissesAutoConfiguration.class, ResourceMissesMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(RememberedMissesMeterBinder.class));
	}

	@SuppressWarnings("unchecked")
	private static Cache<Object, Object> caffeine(RememberedMisses misses) {
		return (Cache<Object, Object>) misses.caffeineCache();
	}

	private static RequiredSearch meter(MeterRegistry registry, String name) {
		return registry.get(name).tag("cache", "resource-misses");
	}

}
