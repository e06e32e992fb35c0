package dev.safedefaults.logging.stop;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.safedefaults.logging.log4j2.LoggingShutdown;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.NullConfiguration;
import org.apache.logging.log4j.core.config.Property;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.bootstrap.DefaultBootstrapContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a failed start gets the starter's drain of the log ring at exit (issue 25): a
 * bounded stop registered in Spring Boot's shutdown handlers, once per Log4j context, and
 * never where the stop is somebody else's. The system test {@code SampleAppFailedStartIT}
 * proves that the report then reaches the console;
 * {@link LogbackFailedStartLogDrainTests} is the same on Logback. Covers
 * {@code Log4j2StopRoute}, the route that runs here: the drain registered once per Log4j
 * context, which it marks.
 */
@OnEveryJdk
class FailedStartLogDrainTests {

	private final SpringApplication application = new SpringApplication();

	private final FailedStartLogDrain drain = new FailedStartLogDrain(this.application, new String[0]);

	private final LoggerContext log4j = (LoggerContext) LogManager.getContext(this.application.getClassLoader(), false);

	private @Nullable BoundedLoggingStop before;

	private @Nullable AsyncLoggerContext drained;

	@BeforeEach
	void forgetTheDrain() {
		this.log4j.removeObject(FailedStartLogDrain.DRAIN_REGISTERED);
		this.before = StopRegistration.current();
	}

	@AfterEach
	void takeTheDrainBack() {
		this.log4j.removeObject(FailedStartLogDrain.DRAIN_REGISTERED);
		if (this.drained != null) {
			this.drained.stop(10, TimeUnit.SECONDS);
		}
		BootShutdownHandlers.restore(this.before);
	}

	@Test
	void aStartThatFailsBeforeTheStartersStopIsRegisteredGetsTheDrain() throws Exception {
		// A missing config import, a YAML error: the environment post-processors never
		// ran.
		this.drain.environmentPrepared(new DefaultBootstrapContext(),
				environment(Map.of("safe-defaults.logging.shutdown-timeout", "7s")));
		this.drain.failed(null, new IllegalStateException("Config data resource does not exist"));
		// The drain's bound is its timeout: the application contexts are not closing.
		assertTheDrainIsRegistered(Duration.ofSeconds(7));
	}

	@Test
	void aStartThatFailsBeforeTheEnvironmentExistsGetsTheDrain() throws Exception {
		this.drain.failed(null, new IllegalStateException("failed while starting"));
		assertTheDrainIsRegistered(LoggingShutdownEnvironmentPostProcessor.DEFAULT_TIMEOUT);
	}

	@Test
	void aSwitchThatIsNotABooleanStillGetsTheDrain() throws Exception {
		this.drain.environmentPrepared(new DefaultBootstrapContext(),
				environment(Map.of("safe-defaults.logging.enabled", "maybe")));
		this.drain.failed(null, new IllegalStateException("Failed to convert"));
		assertTheDrainIsRegistered(LoggingShutdownEnvironmentPostProcessor.DEFAULT_TIMEOUT);
	}

	@Test
	void aSecondFailedStartOnTheSameLog4jContextRegistersNoSecondDrain() throws Exception {
		this.drain.failed(null, new IllegalStateException("failed while starting"));
		BoundedLoggingStop first = assertTheDrainIsRegistered(LoggingShutdownEnvironmentPostProcessor.DEFAULT_TIMEOUT);
		new FailedStartLogDrain(new SpringApplication(), new String[0]).failed(null,
				new IllegalStateException("failed again"));
		assertThat(StopRegistration.current()).isSameAs(first);
	}

	/**
	 * A start that fails after the environment post-processors ran: the starter's stop,
	 * registered by {@link LoggingShutdownEnvironmentPostProcessor}, stays the one Boot
	 * runs, and nothing is added; that stop's drain writes what is still queued.
	 */
	@Test
	void whenTheStartersStopIsRegisteredItDrainsAndNothingIsAdded() throws Exception {
		StandardEnvironment environment = environment(Map.of());
		new LoggingShutdownEnvironmentPostProcessor((destination) -> destination.get())
			.postProcessEnvironment(environment, this.application);
		BoundedLoggingStop starters = StopRegistration.current();
		assertThat(starters).isNotNull().isNotSameAs(this.before);
		this.drain.environmentPrepared(new DefaultBootstrapContext(), environment);
		this.drain.failed(null, new IllegalStateException("failed after the post-processors"));
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
		assertThat(StopRegistration.current()).isSameAs(starters);
		assertThat(BootShutdownHandlers.runnables()).containsOnlyOnce(starters);
		// phase + shutdown timeout, both 30 s by default.
		assertThat(starters.bound()).isEqualTo(Duration.ofSeconds(60));
		// The drain that stop makes (LoggingShutdown.of, on the context Boot stops),
		// here on a context of this test's own: 500 events queued behind an appender
		// that takes a millisecond each are all written when the drain returns.
		SlowCountingAppender appender = new SlowCountingAppender();
		Logger logger = startDrainedContext(appender);
		for (int i = 0; i < 500; i++) {
			logger.info("queued at the failure {}", i);
		}
		assertThat(appender.written.get()).as("still queued when the drain starts").isLessThan(500);
		LoggingShutdown.of(this.drained, Duration.ofSeconds(30)).drain(System.nanoTime() + starters.bound().toNanos());
		assertThat(appender.written.get()).isEqualTo(500);
	}

	@Test
	void anApplicationsOwnRegisterShutdownHookKeepsBootsBehaviour() {
		for (String value : new String[] { "true", "false" }) {
			this.drain.environmentPrepared(new DefaultBootstrapContext(),
					environment(Map.of("logging.register-shutdown-hook", value)));
			this.drain.failed(null, new IllegalStateException("failed"));
			assertNothingIsAdded();
		}
	}

	@Test
	void nothingIsAddedWhenTheLoggingDefaultsAreOff() {
		for (String switchOff : new String[] { "safe-defaults.enabled", "safe-defaults.logging.enabled" }) {
			this.drain.environmentPrepared(new DefaultBootstrapContext(), environment(Map.of(switchOff, "false")));
			this.drain.failed(null, new IllegalStateException("failed"));
			assertNothingIsAdded();
		}
	}

	/**
	 * The context is marked, and a new bounded stop with the timeout as its bound is in
	 * Boot's shutdown handlers.
	 */
	private BoundedLoggingStop assertTheDrainIsRegistered(Duration bound) throws ReflectiveOperationException {
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isEqualTo(Boolean.TRUE);
		BoundedLoggingStop stop = StopRegistration.current();
		assertThat(stop).isNotNull().isNotSameAs(this.before);
		assertThat(stop.bound()).isEqualTo(bound);
		assertThat(BootShutdownHandlers.runnables()).containsOnlyOnce(stop);
		return stop;
	}

	private void assertNothingIsAdded() {
		assertThat(this.log4j.getObject(FailedStartLogDrain.DRAIN_REGISTERED)).isNull();
		assertThat(StopRegistration.current()).isSameAs(this.before);
	}

	private Logger startDrainedContext(SlowCountingAppender appender) {
		this.drained = new AsyncLoggerContext("failed-start-drain-" + System.nanoTime());
		this.drained.start(new NullConfiguration());
		Configuration config = this.drained.getConfiguration();
		appender.start();
		config.addAppender(appender);
		LoggerConfig root = config.getRootLogger();
		root.getAppenders().keySet().forEach(root::removeAppender);
		root.addAppender(appender, Level.ALL, null);
		root.setLevel(Level.ALL);
		this.drained.updateLoggers();
		return this.drained.getLogger("failed-start");
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return environment;
	}

	/**
	 * Takes a millisecond per event: what is queued stays queued for a while.
	 */
	private static final class SlowCountingAppender extends AbstractAppender {

		private final AtomicLong written = new AtomicLong();

		SlowCountingAppender() {
			super("slow", null, null, true, Property.EMPTY_ARRAY);
		}

		@Override
		public void append(LogEvent event) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			this.written.incrementAndGet();
		}

	}

}
