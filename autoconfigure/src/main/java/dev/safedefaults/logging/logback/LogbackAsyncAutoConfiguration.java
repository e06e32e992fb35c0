package dev.safedefaults.logging.logback;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.system.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.system.LoggingDefaultsSwitch;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The logging promise on Logback (issue 21), when Boot runs Logback: the application's
 * own appenders, from its {@code logback-spring.xml}/{@code logback.xml} or Boot's
 * default configuration, wrapped behind bounded queues that discard and count INFO and
 * below when full, never WARN or ERROR ({@link LogbackAsyncWrapping}). The stop is the
 * shutdown package's, as on Log4j2.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class, before = LoggingDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = "ch.qos.logback.classic.LoggerContext")
@Conditional(LogbackAsyncAutoConfiguration.LogbackIsTheLoggingSystemCondition.class)
@EnableConfigurationProperties(LoggingDefaultsProperties.class)
public final class LogbackAsyncAutoConfiguration {

	@Bean
	@ConditionalOnBooleanProperty(name = LoggingDefaultsSwitch.ENABLED_PROPERTY, matchIfMissing = true)
	LogbackAsyncWrapping safeDefaultsLogbackAsyncWrapping(LoggingDefaultsProperties properties) {
		return new LogbackAsyncWrapping(LogbackContexts.running(), WrappingSettings.of(properties));
	}

	@Bean
	FeatureStatusReporter safeDefaultsLogbackFeatureStatus(ObjectProvider<LogbackAsyncWrapping> wrapping) {
		return new LogbackFeatureStatus(wrapping);
	}

	/**
	 * Matches when Boot chooses Logback and SLF4J is bound to it.
	 */
	static class LogbackIsTheLoggingSystemCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ClassLoader classLoader = context.getClassLoader();
			if (classLoader == null || !LogbackLoggingSystemChoice.isChosen(classLoader)) {
				return ConditionOutcome.noMatch("Boot's logging system is not Logback");
			}
			return (LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext)
					? ConditionOutcome.match("Logback is Boot's logging system and SLF4J's backend")
					: ConditionOutcome.noMatch("SLF4J is not bound to Logback");
		}

	}

}
