package dev.safedefaults.logging;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.logging.shutdown.LoggingShutdownEnvironmentPostProcessor;
import dev.safedefaults.logging.system.Log4j2LoggingSystemChoice;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Checks what the logging defaults rest on, without touching Log4j itself: that Log4j2 is
 * the logging system (not Logback), that the Disruptor is a 3.x, and that a shutdown handler
 * (the starter's, or Boot's) will write the queue at exit.
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
		if (system != null && !Log4j2LoggingSystemChoice.is(system)) {
			findings.add(LoggingFindings.NOT_LOG4J2.raise(system.getClass().getSimpleName()));
		}
		if (DisruptorVersion.of(this.classLoader) == DisruptorVersion.V4_OR_LATER) {
			findings.add(LoggingFindings.DISRUPTOR_4.raise("com.lmax:disruptor"));
		}
		if (!this.environment.getProperty("logging.register-shutdown-hook", Boolean.class, true)
				&& !startersStopIsInPlace()) {
			findings.add(LoggingFindings.NO_SHUTDOWN_HOOK.raise("logging.register-shutdown-hook"));
		}
		return findings;
	}

	private boolean startersStopIsInPlace() {
		return this.environment instanceof ConfigurableEnvironment configurable
				&& LoggingShutdownEnvironmentPostProcessor.ownsTheStop(configurable);
	}

}
