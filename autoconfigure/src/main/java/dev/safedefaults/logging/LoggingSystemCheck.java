package dev.safedefaults.logging;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Checks what the logging defaults rest on, without touching Log4j itself: that the
 * logging system is one of the two routes the starter supports (Log4j2, its default, or
 * Logback with {@code spring-boot-starter-log4j2} excluded; saying why Logback runs when
 * both are on the class path), that no configuration file of the system that does not run
 * is silently ignored, that the Disruptor is a 3.x, and that a shutdown handler (the
 * starter's, or Boot's) will write the queue at exit.
 */
public class LoggingSystemCheck implements Check {

	private final ObjectProvider<LoggingSystem> loggingSystem;

	private final Environment environment;

	private final @Nullable ClassLoader classLoader;

	/**
	 * Creates the check.
	 * @param loggingSystem Boot's logging system bean
	 * @param environment the environment
	 * @param classLoader the application's class loader
	 */
	public LoggingSystemCheck(ObjectProvider<LoggingSystem> loggingSystem, Environment environment,
			@Nullable ClassLoader classLoader) {
		this.loggingSystem = loggingSystem;
		this.environment = environment;
		this.classLoader = classLoader;
	}

	@Override
	public String name() {
		return "logging.system";
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		LoggingSystem system = this.loggingSystem.getIfAvailable();
		if (system != null && Log4j2LoggingSystemChoice.is(system)) {
			findings.addAll(logbackConfigurationIgnored());
		}
		else if (system != null && isTheKeepLogbackRoute(system)) {
			findings.addAll(log4j2ConfigurationIgnored());
		}
		else if (system != null) {
			findings.add(notLog4j2(system));
		}
		if (DisruptorVersion.of(this.classLoader) == DisruptorVersion.V4_OR_LATER) {
			findings.add(LoggingFindings.DISRUPTOR_4.raise("com.lmax:disruptor"));
		}
		if (!this.environment.getProperty(LoggingShutdownHookSwitch.REGISTER_SHUTDOWN_HOOK, Boolean.class, true)
				&& !startersStopIsInPlace()) {
			findings.add(LoggingFindings.NO_SHUTDOWN_HOOK.raise(LoggingShutdownHookSwitch.REGISTER_SHUTDOWN_HOOK));
		}
		return findings;
	}

	private List<Finding> logbackConfigurationIgnored() {
		String shipped = LoggingConfigurationFiles.LOGBACK.shipped(this.environment, this.classLoader);
		if (shipped == null) {
			return List.of();
		}
		return List.of(LoggingFindings.LOGBACK_CONFIGURATION_IGNORED.raise(shipped, shipped,
				LoggingConfigurationFiles.origin(this.environment)));
	}

	/**
	 * Logback runs and Log4j2's core is absent: the application excluded the starter's
	 * {@code spring-boot-starter-log4j2} to keep Logback, a route the starter supports.
	 */
	private boolean isTheKeepLogbackRoute(LoggingSystem system) {
		return LogbackLoggingSystemChoice.is(system) && !Log4j2LoggingSystemChoice.isCorePresent(this.classLoader);
	}

	private List<Finding> log4j2ConfigurationIgnored() {
		String shipped = LoggingConfigurationFiles.LOG4J2.shipped(this.environment, this.classLoader);
		if (shipped == null) {
			return List.of();
		}
		return List.of(LoggingFindings.LOG4J2_CONFIGURATION_IGNORED.raise(shipped, shipped,
				LoggingConfigurationFiles.origin(this.environment)));
	}

	private Finding notLog4j2(LoggingSystem system) {
		String subject = system.getClass().getSimpleName();
		// Not the keep-Logback route, so when Logback runs, Log4j2's core is there too.
		boolean logbackWonOverLog4j2 = LogbackLoggingSystemChoice.is(system);
		String shipped = LoggingConfigurationFiles.LOG4J2.shipped(this.environment, this.classLoader);
		if (shipped == null) {
			return logbackWonOverLog4j2 ? LoggingFindings.NOT_LOG4J2_BECAUSE_BOTH_ON_CLASS_PATH.raise(subject)
					: LoggingFindings.NOT_LOG4J2.raise(subject);
		}
		FindingType type = logbackWonOverLog4j2
				? LoggingFindings.NOT_LOG4J2_BECAUSE_BOTH_ON_CLASS_PATH_IGNORING_LOG4J2_CONFIGURATION
				: LoggingFindings.NOT_LOG4J2_IGNORING_LOG4J2_CONFIGURATION;
		return type.raise(subject, shipped, LoggingConfigurationFiles.origin(this.environment));
	}

	private boolean startersStopIsInPlace() {
		return this.environment instanceof ConfigurableEnvironment configurable
				&& LoggingShutdownHookSwitch.ownsTheStop(configurable);
	}

}
