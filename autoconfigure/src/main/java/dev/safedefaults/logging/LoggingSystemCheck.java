package dev.safedefaults.logging;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.env.Environment;

/**
 * Checks what the logging defaults rest on, without touching Log4j itself: that Log4j2 is
 * the logging system (not Logback), that the Disruptor is a 3.x, and that Boot's shutdown
 * hook will flush the queue at exit.
 */
public class LoggingSystemCheck implements Check {

	private static final String LOG4J2_SYSTEM = "org.springframework.boot.logging.log4j2.Log4J2LoggingSystem";

	private final ObjectProvider<LoggingSystem> loggingSystem;

	private final Environment environment;

	private final ClassLoader classLoader;

	/**
	 * Creates the check.
	 * @param loggingSystem Boot's logging system bean
	 * @param environment the environment
	 * @param classLoader the application's class loader
	 */
	public LoggingSystemCheck(ObjectProvider<LoggingSystem> loggingSystem, Environment environment,
			ClassLoader classLoader) {
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
		if (system != null && !system.getClass().getName().equals(LOG4J2_SYSTEM)) {
			findings.add(Finding.warning("logging.not-log4j2", system.getClass().getSimpleName(),
					"Log4j2 is not the logging system, so none of the logging defaults (all-async, discard "
							+ "under pressure, no location) apply.",
					"Exclude spring-boot-starter-logging from spring-boot-starter (see the README, 'Logging')."));
		}
		if (DisruptorVersion.of(this.classLoader) == DisruptorVersion.V4_OR_LATER) {
			findings.add(Finding.warning("logging.disruptor-4", "com.lmax:disruptor",
					"Disruptor 4.x with Log4j 2.25 silently loses events, WARN and ERROR included and uncounted, "
							+ "whenever the ring buffer is full; the starter leaves all-async logging off.",
					"Pin com.lmax:disruptor to 3.4.4."));
		}
		if (!this.environment.getProperty("logging.register-shutdown-hook", Boolean.class, true)) {
			findings.add(Finding.warning("logging.no-shutdown-hook", "logging.register-shutdown-hook",
					"Without Boot's logging shutdown hook, events still queued in the async ring buffer are lost "
							+ "when the JVM exits.",
					"Remove logging.register-shutdown-hook=false."));
		}
		return findings;
	}

}
