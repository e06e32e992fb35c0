package dev.safedefaults.runtime.storm;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.runtime.JfrThrowableSource;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * The runtime storm detector (incidents 1, 3 and 8): exception storms read from the JDK's
 * flight recorder, stack traces printed to {@code System.err}, each a finding while it
 * lasts. Off by default (it costs CPU on every request of a healthy service, see
 * {@link RuntimeStormProperties#isEnabled()}); on with
 * {@code safe-defaults.runtime.enabled=true}. A JRE without the {@code jdk.jfr} module,
 * or with the recorder switched off, gets one INFO finding,
 * {@code runtime.jfr-unavailable}, and nothing else.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(RuntimeStormProperties.class)
public final class RuntimeStormAutoConfiguration {

	@Bean
	RuntimeFeatureStatus safeDefaultsRuntimeFeatureStatus(RuntimeStormProperties properties,
			ObjectProvider<RuntimeStormDetector> detectors) {
		return new RuntimeFeatureStatus(properties, detectors);
	}

	@Bean
	@ConditionalOnBooleanProperty("safe-defaults.runtime.enabled")
	@ConditionalOnBean(FindingsStore.class)
	RuntimeStormDetector safeDefaultsRuntimeStormDetector(FindingsStore store, RuntimeStormProperties properties,
			ObjectProvider<RequestCounter> requestCounters, ApplicationContext context) {
		return onFlightRecorderIfAvailable(store, properties, requestCounters, context.getClassLoader());
	}

	/**
	 * A detector reading the flight recorder, or, when this JRE has none or has it
	 * switched off, one that says why. {@link JfrThrowableSource} is not touched without
	 * the {@code jdk.jfr} module: it would not load.
	 */
	private static RuntimeStormDetector onFlightRecorderIfAvailable(FindingsStore store,
			RuntimeStormProperties properties, ObjectProvider<RequestCounter> requestCounters,
			@Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(JfrThrowableSource.RECORDING_STREAM, classLoader)) {
			return new RuntimeStormDetector(store, properties, null,
					"this JRE has no flight recorder (the jdk.jfr module is absent)", requestCounters::getIfUnique);
		}
		String unavailable = JfrThrowableSource.unavailableReason();
		return new RuntimeStormDetector(store, properties, (unavailable != null) ? null : new JfrThrowableSource(),
				unavailable, requestCounters::getIfUnique);
	}

}
