package dev.safedefaults.logging;

import java.io.PrintStream;
import java.util.function.Function;

import dev.safedefaults.EarlyPropertyBinder;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Says on standard error, once per application start, when SLF4J has no provider: neither
 * logging route's library is on the class path (both {@code spring-boot-starter-log4j2}
 * and {@code spring-boot-starter-logging} excluded), SLF4J's no-operation logger discards
 * every line logged through it, and a finding logged at startup would be lost with them.
 * Standard error is the one place left that shows it; SLF4J's own two lines say that it
 * found no provider, not why, nor what to change. Silent when the starter or its logging
 * defaults are switched off.
 */
public class NoLoggingSystemWarning implements EnvironmentPostProcessor, Ordered {

	/** The factory SLF4J 2 falls back to when it finds no provider. */
	static final String NOP_LOGGER_FACTORY = "org.slf4j.helpers.NOPLoggerFactory";

	static final String WARNING = "safe-defaults: SLF4J found no provider (neither Log4j2 nor Logback is on the "
			+ "class path), so its no-operation logger discards every line logged through SLF4J, the starter's "
			+ "findings included. Choose one logging route (docs/logging.md, Choosing the logging system): for "
			+ "Log4j2, the README's install snippet in <dependencies> (not <dependencyManagement>); to keep Logback, "
			+ "exclude only spring-boot-starter-log4j2 from the starter and keep spring-boot-starter-logging.";

	private final Function<ClassLoader, @Nullable String> slf4jFactory;

	private final PrintStream err;

	/**
	 * Creates the post-processor Boot instantiates: it asks SLF4J and writes to
	 * {@code System.err}.
	 */
	public NoLoggingSystemWarning() {
		this(Slf4jBinding::factoryClassName, System.err);
	}

	NoLoggingSystemWarning(Function<ClassLoader, @Nullable String> slf4jFactory, PrintStream err) {
		this.slf4jFactory = slf4jFactory;
		this.err = err;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (LoggingDefaultsSwitch.isOn(EarlyPropertyBinder.of(environment))
				&& NOP_LOGGER_FACTORY.equals(this.slf4jFactory.apply(application.getClassLoader()))) {
			this.err.println(WARNING);
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
