package dev.safedefaults.runtime.storm.actuate;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.runtime.storm.RequestCounter;
import dev.safedefaults.runtime.storm.RuntimeStormAutoConfiguration;
import dev.safedefaults.runtime.storm.RuntimeStormDetector;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer: the {@code safedefaults.runtime.throwables} counter, and the request
 * count from {@code http.server.requests} that turns throwables into throwables per
 * request.
 */
@AutoConfiguration(after = RuntimeStormAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBooleanProperty("safe-defaults.runtime.enabled")
public final class RuntimeMetricsAutoConfiguration {

	/**
	 * Binds the counter when the registry binds it (after every singleton exists), so the
	 * detector's own conditions need not be repeated here.
	 */
	@Bean
	MeterBinder safeDefaultsRuntimeMeterBinder(ObjectProvider<RuntimeStormDetector> detectors) {
		return (registry) -> detectors.ifAvailable((detector) -> new RuntimeMeterBinder(detector).bindTo(registry));
	}

	@Bean
	@ConditionalOnMissingBean(RequestCounter.class)
	HttpServerRequestCounter safeDefaultsHttpServerRequestCounter(ObjectProvider<MeterRegistry> registries) {
		return new HttpServerRequestCounter(registries);
	}

}
