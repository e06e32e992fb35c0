package dev.safedefaults.logging.logback;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.LoggingDefaultsSwitch;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The logging promise on Logback (issue 21), when Boot runs Logback (the same decision as
 * {@link LogbackChecksAutoConfiguration}'s): the application's own appenders, from its
 * {@code logback-spring.xml}/{@code logback.xml} or Boot's default configuration, wrapped
 * behind bounded queues that discard and count INFO and below when full, never WARN or
 * ERROR ({@link LogbackAsyncWrapping}). The stop is the feature's bounded stop, with
 * Logback's drain ({@link LogbackStopRoute}), as on Log4j2.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class, before = LoggingDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = "ch.qos.logback.classic.LoggerContext")
@ConditionalOnLogbackLoggingSystem
@EnableConfigurationProperties(LoggingDefaultsProperties.class)
public final class LogbackAsyncAutoConfiguration {

	@Bean
	@ConditionalOnBooleanProperty(name = LoggingDefaultsSwitch.ENABLED_PROPERTY, matchIfMissing = true)
	LogbackAsyncWrapping safeDefaultsLogbackAsyncWrapping(LoggingDefaultsProperties properties, LogStalls stalls) {
		return new LogbackAsyncWrapping(LogbackContexts.running(), WrappingSettings.of(properties, stalls));
	}

	@Bean
	FeatureStatusReporter safeDefaultsLogbackFeatureStatus(ObjectProvider<LogbackAsyncWrapping> wrapping) {
		return new LogbackFeatureStatus(wrapping);
	}

}
