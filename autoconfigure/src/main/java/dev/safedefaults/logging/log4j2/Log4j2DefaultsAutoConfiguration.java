package dev.safedefaults.logging.log4j2;

import dev.safedefaults.ConditionalOnSafeDefaultsEnabled;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.SafeDefaultsProperties;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsAutoConfiguration;
import dev.safedefaults.logging.LoggingDefaultsProperties;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The logging promise on Log4j2 (incidents 2, 3, 6 and 8), when Log4j's core is the
 * backend and Logback does not run. All-async loggers, the counting queue-full policy and
 * the ring sizes are set by {@link Log4jDefaultsPropertySource} when Log4j starts, and
 * the throttled stack traces ({@code %throttledEx}) by an environment post-processor
 * before Boot configures logging; this applies what can change afterwards (discard mode
 * and threshold, removal of location capture from Boot's level configs, the stack-trace
 * throttling settings) and contributes the Log4j configuration check and the feature's
 * status. It comes before {@link LoggingDefaultsAutoConfiguration}, whose status for
 * neither route steps aside for this one's.
 */
@AutoConfiguration(after = SafeDefaultsAutoConfiguration.class, before = LoggingDefaultsAutoConfiguration.class)
@ConditionalOnSafeDefaultsEnabled
@ConditionalOnClass(name = "org.apache.logging.log4j.core.LoggerContext")
@Conditional(Log4j2DefaultsAutoConfiguration.Log4jCoreIsTheBackendCondition.class)
@EnableConfigurationProperties(LoggingDefaultsProperties.class)
public final class Log4j2DefaultsAutoConfiguration {

	@Bean
	QueueFullPolicyConfigurer safeDefaultsQueueFullPolicyConfigurer(LoggingDefaultsProperties properties,
			LogStalls stalls) {
		return new QueueFullPolicyConfigurer(properties,
				Log4jDefaultsPropertySource.JvmLevelSettings.fromJvm().enabled(), log4jContext(), stalls);
	}

	@Bean
	StackTraceThrottleConfigurer safeDefaultsStackTraceThrottleConfigurer(LoggingDefaultsProperties properties) {
		return new StackTraceThrottleConfigurer(properties.getStackTraces().getFirstN(),
				properties.getStackTraces().getInterval(), properties.getStackTraces().getMaxKinds());
	}

	@Bean
	@ConditionalOnBooleanProperty(name = LoggingDefaultsSwitch.ENABLED_PROPERTY, matchIfMissing = true)
	LocationCaptureRemover safeDefaultsLocationCaptureRemover() {
		return new LocationCaptureRemover(log4jContext());
	}

	@Bean
	Log4jConfigurationCheck safeDefaultsLog4jConfigurationCheck(LoggingDefaultsProperties properties) {
		return new Log4jConfigurationCheck(properties.isEnabled());
	}

	@Bean
	@ConditionalOnBean(FindingsStore.class)
	@ConditionalOnBooleanProperty(name = SafeDefaultsProperties.CHECKS_ENABLED_PROPERTY, matchIfMissing = true)
	Log4jCheckRerunner safeDefaultsLog4jCheckRerunner(Log4jConfigurationCheck check, FindingsStore store) {
		return new Log4jCheckRerunner(log4jContext(), check, store);
	}

	@Bean
	FeatureStatusReporter safeDefaultsLoggingFeatureStatus(LoggingDefaultsProperties properties,
			ObjectProvider<LocationCaptureRemover> locationCaptureRemover, Environment environment,
			ObjectProvider<QueueFullPolicyConfigurer> queueFullPolicy, LogStalls stalls) {
		return new LoggingFeatureStatus(properties, locationCaptureRemover, environment, queueFullPolicy, stalls);
	}

	private static LoggerContext log4jContext() {
		return (LoggerContext) LogManager.getContext(false);
	}

	/**
	 * Matches when Log4j's core is the backend behind the Log4j API (not, say, SLF4J
	 * through log4j-to-slf4j because Logback won) and Logback does not run: log4j-core on
	 * the class path of an application that keeps Logback is the Log4j API's backend too,
	 * and the logging defaults are then Logback's, with their own status.
	 */
	static class Log4jCoreIsTheBackendCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			if (!(LogManager.getContext(false) instanceof LoggerContext)) {
				return ConditionOutcome.noMatch("Log4j core is not the logging backend");
			}
			ClassLoader classLoader = context.getClassLoader();
			if (classLoader != null && LogbackLoggingSystemChoice.isRunning(classLoader)) {
				return ConditionOutcome.noMatch("Log4j core is the Log4j API's backend, but Logback is Boot's logging "
						+ "system and SLF4J's backend: the logging defaults are Logback's");
			}
			return ConditionOutcome.match("Log4j core is the logging backend and Logback does not run");
		}

	}

}
