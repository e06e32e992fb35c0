package dev.safedefaults.logging.log4j2.actuate;

import java.util.function.LongSupplier;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.CountingQueueFullPolicy;
import dev.safedefaults.logging.log4j2.Log4j2DefaultsAutoConfiguration;
import dev.safedefaults.logging.log4j2.QueueFullPolicyConfigurer;
import dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The logging metrics on Log4j2, when Micrometer and Log4j core are present. They come
 * after the feature's root auto-configuration, which the Logback metrics come before:
 * when Logback runs, its meter binder is there and these step aside.
 */
@AutoConfiguration(after = { Log4j2DefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class })
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(value = MeterBinder.class, name = "org.apache.logging.log4j.core.async.AsyncLoggerContext")
public final class LoggingMetricsAutoConfiguration {

	@Bean
	// Logback runs (both libraries on the class path): its metrics count, not Log4j's.
	@ConditionalOnMissingBean(name = "safeDefaultsLogbackMeterBinder")
	LoggingMeterBinder safeDefaultsLoggingMeterBinder(ObjectProvider<QueueFullPolicyConfigurer> queueFullPolicy,
			ObjectProvider<StackTraceThrottleConfigurer> stackTraceThrottle) {
		return new LoggingMeterBinder(discarded(queueFullPolicy.getIfAvailable()),
				elided(stackTraceThrottle.getIfAvailable()));
	}

	/**
	 * This context's own count when it configured the policy, else the count in force.
	 */
	private static LongSupplier discarded(@Nullable QueueFullPolicyConfigurer configurer) {
		return (configurer != null) ? configurer::discardedCount : CountingQueueFullPolicy::discardedCount;
	}

	private static LongSupplier elided(@Nullable StackTraceThrottleConfigurer configurer) {
		return (configurer != null) ? configurer::elidedCount : StackTraceThrottling::elidedCount;
	}

}
