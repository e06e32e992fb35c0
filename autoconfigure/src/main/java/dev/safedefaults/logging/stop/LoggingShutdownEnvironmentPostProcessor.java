package dev.safedefaults.logging.stop;

import java.time.Duration;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.PropertyBounds;
import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.LoggingShutdownHookSwitch;
import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Puts the starter's bounded stop ({@link BoundedLoggingStop}, with the running route's
 * drain: {@link LoggingStopRoute}) in place of Spring Boot's logging shutdown handler.
 * Boot registers its handler, {@code LoggerContext.stop()} (a 0 ms timeout), on the same
 * event unless {@code logging.register-shutdown-hook} is false; this sets that property
 * to false in a property source that comes last, and registers the starter's handler with
 * {@link SpringApplication#getShutdownHandlers()}, which runs it once the application
 * contexts have closed.
 * <p>
 * An application that sets {@code logging.register-shutdown-hook} itself keeps Boot's
 * behaviour: {@code true} brings Boot's handler back (and no guarantee), {@code false}
 * means nobody stops Log4j (the {@code logging.no-shutdown-hook} finding says so).
 * Nothing happens unless Log4j2 is Boot's logging system or Logback runs
 * ({@link LogbackLoggingSystemChoice#isRunning}: Boot's choice and SLF4J's backend), and
 * the logging defaults are on; on Logback the stop drains the wrapped appenders' queues,
 * with the same timeout, bound and last line.
 * <p>
 * The timeout is {@code safe-defaults.logging.shutdown-timeout} (declared in additional
 * configuration metadata, read here only), or else Boot's
 * {@code spring.lifecycle.timeout-per-shutdown-phase}, or else 30 s; from 1 ms to 10
 * minutes. Boot's property is Boot's: a value Boot accepts outside that range
 * ({@code 0s}, an hour) is clamped into it, with a warning, never refused. The whole
 * stop, from the signal to the exit, is bounded by phase + timeout + 2 s
 * ({@link BoundedLoggingStop}).
 * <p>
 * Each application run registers its own stop, in place of the previous run's: a
 * restarted application (DevTools, tests) stops with its own settings.
 */
public class LoggingShutdownEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** How long queued events may take at a stop. */
	public static final String TIMEOUT = "safe-defaults.logging.shutdown-timeout";

	static final String BOOT_PHASE_TIMEOUT = "spring.lifecycle.timeout-per-shutdown-phase";

	/** Boot's default for {@link #BOOT_PHASE_TIMEOUT}, and so the default timeout. */
	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

	static final Duration MIN_TIMEOUT = Duration.ofMillis(1);

	/**
	 * The longest phase the bound's arithmetic takes: longer ones are as good as endless.
	 */
	private static final Duration MAX_PHASE = PropertyBounds.MAX_INTERVAL;

	private final Log logger;

	/**
	 * Created by Boot, with its deferred logs (logging is not configured yet).
	 * @param logs Boot's deferred log factory
	 */
	public LoggingShutdownEnvironmentPostProcessor(DeferredLogFactory logs) {
		this.logger = logs.getLog(LoggingShutdownEnvironmentPostProcessor.class);
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		EarlyPropertyBinder binder = EarlyPropertyBinder.of(environment);
		ClassLoader classLoader = application.getClassLoader();
		if (!LoggingDefaultsSwitch.isOn(binder)
				|| environment.containsProperty(LoggingShutdownHookSwitch.REGISTER_SHUTDOWN_HOOK)) {
			return;
		}
		LoggingStopRoute route = LoggingStopRoute.running(classLoader);
		if (route == null) {
			return;
		}
		Duration timeout = timeout(binder);
		Duration bound = phase(binder).plus(timeout);
		LoggingShutdownHookSwitch.switchOff(environment);
		route.registerStop(classLoader, timeout, bound);
	}

	Duration timeout(EarlyPropertyBinder binder) {
		Duration timeout = binder.duration(TIMEOUT, MIN_TIMEOUT, PropertyBounds.MAX_TIMEOUT,
				"how long queued log events may take at a stop");
		if (timeout != null) {
			return timeout;
		}
		EarlyPropertyBinder.Borrowed phase = binder.borrowedDuration(BOOT_PHASE_TIMEOUT, MIN_TIMEOUT,
				PropertyBounds.MAX_TIMEOUT);
		if (phase == null) {
			return DEFAULT_TIMEOUT;
		}
		if (phase.clamped()) {
			this.logger
				.warn(BOOT_PHASE_TIMEOUT + "=" + phase.value() + " is outside what queued log events may take at a "
						+ "stop (" + MIN_TIMEOUT.toMillis() + "ms to " + PropertyBounds.MAX_TIMEOUT.toMinutes()
						+ "m): they get " + phase.used() + "; set " + TIMEOUT + " to choose");
		}
		return phase.used();
	}

	private static Duration phase(EarlyPropertyBinder binder) {
		EarlyPropertyBinder.Borrowed phase = binder.borrowedDuration(BOOT_PHASE_TIMEOUT, Duration.ZERO, MAX_PHASE);
		return (phase != null) ? phase.used() : DEFAULT_TIMEOUT;
	}

	@Override
	public int getOrder() {
		// After the config data processor, so the application's properties are visible.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
