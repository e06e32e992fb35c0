package dev.safedefaults.logging.stop;

import java.time.Duration;

import dev.safedefaults.EarlyPropertyBinder;
import dev.safedefaults.logging.LogbackLoggingSystemChoice;
import dev.safedefaults.logging.LoggingDefaultsSwitch;
import dev.safedefaults.logging.LoggingShutdownHookSwitch;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.bootstrap.ConfigurableBootstrapContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;

/**
 * Writes what a failed start logged, Boot's failure report above all, before the JVM
 * exits (issue 25). With every logger asynchronous the report is only queued when the
 * main thread ends, and a start that fails before Boot has initialised its logging system
 * (a missing {@code spring.config.import} file, a YAML syntax error, a bad value read by
 * an environment post-processor) has nobody to stop Log4j: the JVM exited with the report
 * still in the ring, in about one such start out of six.
 * <p>
 * On a failed start this registers the starter's bounded stop
 * ({@link BoundedLoggingStop}, with the running route's drain: {@link LoggingStopRoute})
 * as a Spring Boot shutdown handler: Boot logs its report right after its run listeners
 * have heard of the failure, the main thread ends, and the handler then waits for the
 * ring to drain, with the shutdown timeout, and counts what could not be written, exactly
 * as at a stop. There is no extension point after the report, so the report itself stays
 * asynchronous; the exit waits for it.
 * <p>
 * Nothing is registered where the stop is somebody else's: when the starter's stop
 * handler is already registered (its {@code logging.register-shutdown-hook=false} is in
 * the environment), when the application sets {@code logging.register-shutdown-hook}
 * itself (it keeps Boot's behaviour), when the logging defaults are off, or when Log4j2
 * is not Boot's logging system and Logback does not run either
 * ({@link LogbackLoggingSystemChoice#isRunning}; its wrapped appenders are drained the
 * same way). Like every Spring Boot shutdown handler it runs only when
 * {@code spring.main.register-shutdown-hook} is left on.
 */
public class FailedStartLogDrain implements SpringApplicationRunListener, Ordered {

	/**
	 * Marks a Log4j or Logback context whose drain is registered (in its object map): one
	 * drain per context.
	 */
	public static final String DRAIN_REGISTERED = FailedStartLogDrain.class.getName() + ".registered";

	private final SpringApplication application;

	private @Nullable ConfigurableEnvironment environment;

	/**
	 * Creates the listener for one run.
	 * @param application the application being run
	 * @param args its arguments
	 */
	public FailedStartLogDrain(SpringApplication application, String[] args) {
		this.application = application;
	}

	@Override
	public void environmentPrepared(ConfigurableBootstrapContext bootstrapContext,
			ConfigurableEnvironment environment) {
		// Kept before the post-processors run: a failure there never reaches a context.
		this.environment = environment;
	}

	@Override
	public void failed(@Nullable ConfigurableApplicationContext context, Throwable exception) {
		ConfigurableEnvironment environment = environment(context);
		if (!isTheStartersToDrain(environment)) {
			return;
		}
		ClassLoader classLoader = this.application.getClassLoader();
		LoggingStopRoute route = LoggingStopRoute.running(classLoader);
		if (route != null) {
			route.registerFailedStartDrain(classLoader, timeout(environment));
		}
	}

	private static boolean isTheStartersToDrain(ConfigurableEnvironment environment) {
		try {
			EarlyPropertyBinder binder = EarlyPropertyBinder.of(environment);
			return LoggingDefaultsSwitch.isOn(binder)
					&& !environment.containsProperty(LoggingShutdownHookSwitch.REGISTER_SHUTDOWN_HOOK);
		}
		catch (RuntimeException ex) {
			// A switch that is not a boolean failed the start: its report must be
			// written.
			return true;
		}
	}

	private ConfigurableEnvironment environment(@Nullable ConfigurableApplicationContext context) {
		if (context != null) {
			return context.getEnvironment();
		}
		// A failure before the environment was prepared: the JVM-level switches still
		// count.
		return (this.environment != null) ? this.environment : new StandardEnvironment();
	}

	private static Duration timeout(ConfigurableEnvironment environment) {
		try {
			// Its warning about a clamped Boot timeout is the post-processor's to give,
			// not this one's.
			return new LoggingShutdownEnvironmentPostProcessor((destination) -> destination.get())
				.timeout(EarlyPropertyBinder.of(environment));
		}
		catch (RuntimeException ex) {
			// The timeout itself may be what failed the start: the report says so.
			return LoggingShutdownEnvironmentPostProcessor.DEFAULT_TIMEOUT;
		}
	}

	@Override
	public int getOrder() {
		// Before Boot's event publishing listener, whose environment post-processors may
		// fail.
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
