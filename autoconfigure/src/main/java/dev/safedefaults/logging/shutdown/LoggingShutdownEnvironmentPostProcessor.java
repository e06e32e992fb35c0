package dev.safedefaults.logging.shutdown;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.safedefaults.PropertyBounds;

import dev.safedefaults.logging.system.Log4j2LoggingSystemChoice;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

/**
 * Puts the starter's {@link LoggingShutdown} in place of Spring Boot's logging shutdown
 * handler. Boot registers its handler, {@code LoggerContext.stop()} (a 0 ms timeout), on the
 * same event unless {@code logging.register-shutdown-hook} is false; this sets that property
 * to false in a property source that comes last, and registers the starter's handler with
 * {@link SpringApplication#getShutdownHandlers()}, which runs it once the application
 * contexts have closed.
 * <p>
 * An application that sets {@code logging.register-shutdown-hook} itself keeps Boot's
 * behaviour: {@code true} brings Boot's handler back (and no guarantee), {@code false}
 * means nobody stops Log4j (the {@code logging.no-shutdown-hook} finding says so). Nothing
 * happens unless Log4j2 is Boot's logging system and the logging defaults are on.
 * <p>
 * The timeout is {@code safe-defaults.logging.shutdown-timeout}, or else Boot's
 * {@code spring.lifecycle.timeout-per-shutdown-phase}, or else 30 s; from 1 ms to 10 minutes.
 */
public class LoggingShutdownEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** Name of the property source that switches Boot's handler off. It comes last. */
	public static final String PROPERTY_SOURCE_NAME = "safeDefaultsLoggingShutdown";

	/** Boot's switch for its logging shutdown handler. */
	public static final String REGISTER_SHUTDOWN_HOOK = "logging.register-shutdown-hook";

	static final String TIMEOUT = "safe-defaults.logging.shutdown-timeout";

	static final String BOOT_PHASE_TIMEOUT = "spring.lifecycle.timeout-per-shutdown-phase";

	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);



	/** One handler per JVM: Log4j's context outlives each application run. */
	private static final AtomicBoolean registered = new AtomicBoolean();

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!isEnabled(environment) || environment.containsProperty(REGISTER_SHUTDOWN_HOOK)
				|| !Log4j2LoggingSystemChoice.isChosen(application.getClassLoader())) {
			return;
		}
		Duration timeout = timeout(environment);
		environment.getPropertySources()
			.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(REGISTER_SHUTDOWN_HOOK, "false")));
		if (registered.compareAndSet(false, true)) {
			SpringApplication.getShutdownHandlers()
				.add(Log4jShutdownHandler.create(application.getClassLoader(), timeout));
		}
	}

	/**
	 * Whether the starter took over the logging stop in this environment.
	 * @param environment the environment
	 * @return whether {@code logging.register-shutdown-hook=false} is the starter's
	 */
	public static boolean ownsTheStop(ConfigurableEnvironment environment) {
		for (PropertySource<?> source : environment.getPropertySources()) {
			// Boot's attached view of all the other sources contains every property: skip it.
			if (!ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)
					&& source.containsProperty(REGISTER_SHUTDOWN_HOOK)) {
				return PROPERTY_SOURCE_NAME.equals(source.getName());
			}
		}
		return false;
	}

	static Duration timeout(ConfigurableEnvironment environment) {
		Binder binder = Binder.get(environment);
		String property = TIMEOUT;
		Duration timeout = binder.bind(TIMEOUT, Duration.class).orElse(null);
		if (timeout == null) {
			property = BOOT_PHASE_TIMEOUT;
			timeout = binder.bind(BOOT_PHASE_TIMEOUT, Duration.class).orElse(null);
		}
		if (timeout == null) {
			return DEFAULT_TIMEOUT;
		}
		// Checked here too: the timeout is needed before any bean exists.
		PropertyBounds.requireRange(property, timeout, Duration.ofMillis(1), PropertyBounds.MAX_TIMEOUT,
				"how long queued log events may take at a stop; safe-defaults.logging.shutdown-timeout sets it");
		return timeout;
	}

	private static boolean isEnabled(ConfigurableEnvironment environment) {
		return environment.getProperty("safe-defaults.enabled", Boolean.class, true)
				&& environment.getProperty("safe-defaults.logging.enabled", Boolean.class, true);
	}


	@Override
	public int getOrder() {
		// After the config data processor, so the application's properties are visible.
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * Keeps Log4j's types out of the post-processor, which loads without Log4j too.
	 */
	private static final class Log4jShutdownHandler {

		static Runnable create(ClassLoader classLoader, Duration timeout) {
			org.apache.logging.log4j.spi.LoggerContext context = org.apache.logging.log4j.LogManager
				.getContext(classLoader, false);
			if (context instanceof org.apache.logging.log4j.core.LoggerContext core) {
				// The ring buffer is looked up when the stop starts: a restarted context has a new one.
				return () -> LoggingShutdown.of(core, timeout).run();
			}
			return () -> {
			};
		}

	}

}
