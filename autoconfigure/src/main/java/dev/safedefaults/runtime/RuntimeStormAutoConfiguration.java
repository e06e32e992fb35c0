package dev.safedefaults.runtime;

import java.time.Duration;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FindingsStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * The runtime storm detector (incidents 1, 3 and 8): exception storms read from the JDK's
 * flight recorder, stack traces printed to {@code System.err}, each a finding while it
 * lasts. Off with {@code safe-defaults.runtime.enabled=false}. A JRE without the
 * {@code jdk.jfr} module, or with the recorder switched off, gets one INFO finding,
 * {@code runtime.jfr-unavailable}, and nothing else.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(RuntimeStormProperties.class)
public final class RuntimeStormAutoConfiguration {

	private static final Duration MIN_SAMPLING_PERIOD = Duration.ofMillis(10);

	@Bean
	RuntimeFeatureStatus safeDefaultsRuntimeFeatureStatus(RuntimeStormProperties properties,
			ObjectProvider<RuntimeStormDetector> detectors) {
		return new RuntimeFeatureStatus(properties, detectors);
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "safe-defaults.runtime.enabled", matchIfMissing = true)
	@ConditionalOnBean(FindingsStore.class)
	RuntimeStormDetector safeDefaultsRuntimeStormDetector(FindingsStore store, RuntimeStormProperties properties,
			ObjectProvider<RequestCounter> requestCounters, ApplicationContext context) {
		validate(properties);
		if (!ClassUtils.isPresent(JfrThrowableSource.RECORDING_STREAM, context.getClassLoader())) {
			return new RuntimeStormDetector(store, properties, null,
					"this JRE has no flight recorder (the jdk.jfr module is absent)", requestCounters::getIfUnique);
		}
		String unavailable = JfrThrowableSource.unavailableReason();
		return new RuntimeStormDetector(store, properties, (unavailable != null) ? null : new JfrThrowableSource(),
				unavailable, requestCounters::getIfUnique);
	}

	private static void validate(RuntimeStormProperties properties) {
		Duration period = properties.getSamplingPeriod();
		if (period == null || period.compareTo(MIN_SAMPLING_PERIOD) < 0) {
			throw new InvalidConfigurationPropertyValueException("safe-defaults.runtime.sampling-period", period,
					"Must be at least 10ms, such as 1s");
		}
		positive("safe-defaults.runtime.sustained-for", properties.getSustainedFor(), "such as 5s");
		positive("safe-defaults.runtime.exception-storm.window-interval",
				properties.getExceptionStorm().getWindowInterval(), "such as 10m");
		positive("safe-defaults.runtime.exception-storm.per-second", properties.getExceptionStorm().getPerSecond());
		positive("safe-defaults.runtime.exception-storm.per-request", properties.getExceptionStorm().getPerRequest());
		positive("safe-defaults.runtime.stderr-stack-traces.per-second",
				properties.getStderrStackTraces().getPerSecond());
	}

	private static void positive(String name, Duration value, String example) {
		if (value == null || value.isZero() || value.isNegative()) {
			throw new InvalidConfigurationPropertyValueException(name, value,
					"Must be a positive duration, " + example);
		}
	}

	private static void positive(String name, double value) {
		if (!(value > 0) || Double.isInfinite(value)) {
			throw new InvalidConfigurationPropertyValueException(name, value, "Must be a positive number");
		}
	}

}
