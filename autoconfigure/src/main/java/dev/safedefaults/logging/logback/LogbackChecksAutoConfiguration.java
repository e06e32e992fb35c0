package dev.safedefaults.logging.logback;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.LoggingFindings;
import dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The logging checks and the stack-trace throttling on Logback, when the application
 * keeps Logback as its logging system (issue 21): its own {@code AsyncAppender}s checked
 * (incidents 2 and 3), the location words of its patterns reported with the same finding
 * as on Log4j2 ({@code logging.location-pattern}), and the
 * {@code safe-defaults.logging.stack-traces.*} settings applied to Logback's
 * {@code %throttledEx}. Nothing of the application's Logback configuration is rewritten.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = { "ch.qos.logback.classic.LoggerContext", "org.slf4j.LoggerFactory" })
@ConditionalOnLogbackLoggingSystem
@EnableConfigurationProperties(LoggingDefaultsProperties.class)
public final class LogbackChecksAutoConfiguration {

	@Bean
	LogbackAsyncAppenderCheck safeDefaultsLogbackAsyncAppenderCheck() {
		return new LogbackAsyncAppenderCheck(LogbackContexts::running);
	}

	@Bean
	LogbackLocationPatternCheck safeDefaultsLogbackLocationPatternCheck() {
		return new LogbackLocationPatternCheck(LogbackContexts::running, LoggingFindings.LOCATION_PATTERN_ON_LOGBACK);
	}

	@Bean
	LogbackFullStackTracesCheck safeDefaultsLogbackFullStackTracesCheck() {
		return new LogbackFullStackTracesCheck(LogbackContexts::running, LoggingFindings.FULL_STACK_TRACES_ON_LOGBACK);
	}

	@Bean
	StackTraceThrottleConfigurer safeDefaultsLogbackStackTraceThrottleConfigurer(LoggingDefaultsProperties properties) {
		return new StackTraceThrottleConfigurer(properties.getStackTraces().getFirstN(),
				properties.getStackTraces().getInterval(), properties.getStackTraces().getMaxKinds());
	}

}
