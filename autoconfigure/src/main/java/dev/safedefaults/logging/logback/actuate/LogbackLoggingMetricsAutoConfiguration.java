package dev.safedefaults.logging.logback.actuate;

import java.util.function.LongSupplier;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.logback.LogbackAsyncAutoConfiguration;
import dev.safedefaults.logging.logback.LogbackAsyncWrapping;
import dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer;
import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The logging metrics on Logback ({@link LogbackMeterBinder}): the events this
 * application context's wrapped appenders discarded because their queue was full (never
 * WARN or above), and the stack traces {@code %throttledEx} left out. It comes before the
 * feature's root auto-configuration, and so before the Log4j2 metrics, which come after
 * that one and step aside when this one's meter binder is there (both libraries on the
 * class path, Logback running).
 */
@AutoConfiguration(after = LogbackAsyncAutoConfiguration.class, before = LoggingDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(LogbackAsyncWrapping.class)
public final class LogbackLoggingMetricsAutoConfiguration {

	/** The bean's name, which the Log4j2 metrics look for. */
	public static final String METER_BINDER = "safeDefaultsLogbackMeterBinder";

	@Bean(METER_BINDER)
	MeterBinder safeDefaultsLogbackMeterBinder(LogbackAsyncWrapping wrapping,
			ObjectProvider<StackTraceThrottleConfigurer> stackTraceThrottle) {
		return new LogbackMeterBinder(wrapping, elided(stackTraceThrottle.getIfAvailable()));
	}

	/**
	 * This context's own count when it configured the throttling, else the count in
	 * force.
	 */
	private static LongSupplier elided(@Nullable StackTraceThrottleConfigurer configurer) {
		return (configurer != null) ? configurer::elidedCount : StackTraceThrottling::elidedCount;
	}

}
