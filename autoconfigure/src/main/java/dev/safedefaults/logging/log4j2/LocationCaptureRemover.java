package dev.safedefaults.logging.log4j2;

import java.beans.PropertyChangeEvent;
import java.beans.PropertyChangeListener;
import java.util.List;

import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;

import org.springframework.beans.factory.DisposableBean;

/**
 * Spring Boot creates a logger config for each {@code logging.level.*} entry with
 * {@code includeLocation=true}; in an all-async context every logger under it then walks
 * the stack on every call (incident 3), although Boot's layouts never print a location.
 * This replaces each such config with an equal one that does not capture location, at
 * startup and whenever Log4j's loggers are updated again (a reconfiguration, the
 * actuator's {@code loggers} endpoint).
 */
public class LocationCaptureRemover implements PropertyChangeListener, DisposableBean {

	/**
	 * Boot's private class for a {@code logging.level.*} entry: no public API tells such
	 * a config apart from the application's own, so it is matched by name. Checked
	 * against Boot 4.0.0, 4.0.9 and 4.1.2;
	 * {@code LoggingDefaultsAutoConfigurationTests#bootsLevelLoggerStopsCapturingLocationAtStartupAndWhenAddedLater}
	 * fails if Boot renames it or its configs stop capturing location.
	 */
	private static final String BOOT_LEVEL_CONFIG = "org.springframework.boot.logging.log4j2.Log4J2LoggingSystem$LevelSetLoggerConfig";

	private final LoggerContext context;

	private volatile int replaced;

	/**
	 * Removes location capture from the context's level configs now and after every
	 * update.
	 * @param context the logger context
	 */
	public LocationCaptureRemover(LoggerContext context) {
		this.context = context;
		removeLocationCapture();
		context.addPropertyChangeListener(this);
	}

	@Override
	public void propertyChange(PropertyChangeEvent event) {
		if (LoggerContext.PROPERTY_CONFIG.equals(event.getPropertyName())) {
			removeLocationCapture();
		}
	}

	private synchronized void removeLocationCapture() {
		Configuration config = this.context.getConfiguration();
		List<LoggerConfig> capturing = config.getLoggers()
			.values()
			.stream()
			.filter((logger) -> logger.isIncludeLocation() && isBootLevelConfig(logger))
			.toList();
		for (LoggerConfig logger : capturing) {
			LoggerConfig replacement = LoggerConfig.newBuilder()
				.withLoggerName(logger.getName())
				.withLevel(logger.getLevel())
				.withAdditivity(logger.isAdditive())
				.withIncludeLocation("false")
				.withConfig(config)
				.build();
			config.removeLogger(logger.getName());
			config.addLogger(logger.getName(), replacement);
		}
		if (!capturing.isEmpty()) {
			this.replaced += capturing.size();
			// Fires the change event again; the second pass finds nothing to replace.
			this.context.updateLoggers();
		}
	}

	/**
	 * Whether Boot created a logger config from a {@code logging.level.*} entry.
	 * @param logger the logger config
	 * @return {@code true} for Boot's level configs
	 */
	static boolean isBootLevelConfig(LoggerConfig logger) {
		return logger.getClass().getName().equals(BOOT_LEVEL_CONFIG);
	}

	/**
	 * How many logger configs had their location capture removed so far.
	 * @return the count
	 */
	public int replacedCount() {
		return this.replaced;
	}

	@Override
	public void destroy() {
		this.context.removePropertyChangeListener(this);
	}

}
