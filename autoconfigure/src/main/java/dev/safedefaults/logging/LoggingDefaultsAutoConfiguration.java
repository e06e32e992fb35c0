package dev.safedefaults.logging;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.LibraryAbsentFeatureStatus;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * The logging feature on either route: its properties, the check of what the logging
 * defaults rest on ({@link LoggingSystemCheck}: which logging system runs, configuration
 * files it ignores, the Disruptor, the shutdown handler), the bound on a log call shared
 * by both routes ({@link LogStalls}, with its finding), and the feature's status when
 * neither route applies. Each route's own auto-configuration (Log4j2's, Logback's) comes
 * before this one and contributes the status when it applies.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@EnableConfigurationProperties(LoggingDefaultsProperties.class)
public final class LoggingDefaultsAutoConfiguration {

	@Bean
	LoggingSystemCheck safeDefaultsLoggingSystemCheck(ObjectProvider<LoggingSystem> loggingSystem,
			Environment environment, ResourceLoader resourceLoader) {
		return new LoggingSystemCheck(loggingSystem, environment, resourceLoader.getClassLoader());
	}

	@Bean
	LogStalls safeDefaultsLogStalls(LoggingDefaultsProperties properties) {
		return new LogStalls(properties.getQueueFullTimeout());
	}

	@Bean
	@ConditionalOnBean(FindingsStore.class)
	LogStallFindings safeDefaultsLogStallFindings(FindingsStore store, LogStalls stalls) {
		return new LogStallFindings(store, stalls);
	}

	@Bean
	// Either system's status: Log4j2's and Logback's from their own auto-configurations.
	@ConditionalOnMissingBean(name = { "safeDefaultsLoggingFeatureStatus", "safeDefaultsLogbackFeatureStatus" })
	FeatureStatusReporter safeDefaultsLoggingFeatureStatusWithoutLog4j() {
		return new LibraryAbsentFeatureStatus(LoggingFeature.NAME,
				"log4j-core is not on the class path or is not the logging backend (see logging.not-log4j2)");
	}

}
