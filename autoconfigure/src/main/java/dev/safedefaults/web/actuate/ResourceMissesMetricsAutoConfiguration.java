package dev.safedefaults.web.actuate;

import com.github.benmanes.caffeine.cache.Caffeine;
import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.web.RememberedMisses;
import dev.safedefaults.web.ResourceMissesAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * The {@code resource-misses} cache's metrics, when Micrometer and Caffeine are present.
 */
@AutoConfiguration(after = ResourceMissesAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass({ MeterRegistry.class, CaffeineCacheMetrics.class, Caffeine.class })
@ConditionalOnBooleanProperty(name = "safe-defaults.resource-misses.enabled", matchIfMissing = true)
public final class ResourceMissesMetricsAutoConfiguration {

	@Bean
	RememberedMissesMeterBinder safeDefaultsRememberedMissesMeterBinder(ObjectProvider<RememberedMisses> misses) {
		return new RememberedMissesMeterBinder(misses);
	}

}
