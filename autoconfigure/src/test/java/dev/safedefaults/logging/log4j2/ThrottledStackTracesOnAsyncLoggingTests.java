package dev.safedefaults.logging.log4j2;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.appender.OutputStreamAppender;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.NullConfiguration;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An error storm on a real all-async Log4j context (the starter's default): every ERROR
 * is written, the first traces of each kind in full, the rest on one line each.
 */
@OnEveryJdk
class ThrottledStackTracesOnAsyncLoggingTests {

	private static final int THREADS = 4;

	private static final int ERRORS_PER_THREAD = 1_500;

	private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private AsyncLoggerContext context;

	@AfterEach
	void stop() {
		this.threads.shutdownNow();
		if (this.context != null) {
			this.context.stop(10, TimeUnit.SECONDS);
		}
		StackTraceThrottling.reset();
	}

	private Logger start() {
		this.context = new AsyncLoggerContext("storm-" + System.nanoTime());
		this.context.start(new NullConfiguration());
		Configuration config = this.context.getConfiguration();
		PatternLayout layout = PatternLayout.newBuilder()
			.withPattern("%p [%t] %m%n%throttledEx")
			.withConfiguration(config)
			.build();
		OutputStreamAppender appender = OutputStreamAppender.newBuilder()
			.setName("storm")
			.setLayout(layout)
			.setTarget(this.out)
			.build();
		appender.start();
		config.addAppender(appender);
		LoggerConfig root = config.getRootLogger();
		root.getAppenders().keySet().forEach(root::removeAppender);
		root.addAppender(appender, Level.ALL, null);
		this.context.updateLoggers();
		return this.context.getLogger("storm");
	}

	private static RuntimeException failure(int kind, int i) {
		return switch (kind) {
			case 0 -> connectionRefused(i);
			case 1 -> timedOut(i);
			default -> badGateway(i);
		};
	}

	private static RuntimeException connectionRefused(int i) {
		return new IllegalStateException("connection refused " + i, new java.net.ConnectException("refused"));
	}

	private static RuntimeException timedOut(int i) {
		return new IllegalStateException("timed out " + i, new java.net.SocketTimeoutException("read timed out"));
	}

	private static RuntimeException badGateway(int i) {
		return new UnsupportedOperationException("bad gateway " + i);
	}

	@Test
	void noErrorIsLostAndOnlyTheFirstTracesOfEachKindAreFull() throws Exception {
		// An interval longer than the test: which events fall into it must not depend on
		// speed.
		StackTraceThrottling.configure(new StackTraceThrottling.Settings(3, Duration.ofHours(1), 1024));
		Logger logger = start();
		long elidedBefore = StackTraceThrottling.elidedCount();
		List<Future<?>> futures = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			futures.add(this.threads.submit(() -> {
				for (int i = 0; i < ERRORS_PER_THREAD; i++) {
					logger.error("request failed {}", i, failure(i % 3, i));
				}
			}));
		}
		for (Future<?> future : futures) {
			future.get(2, TimeUnit.MINUTES);
		}
		// Stopping the context writes everything still queued.
		this.context.stop(30, TimeUnit.SECONDS);
		List<String> lines = this.out.toString(StandardCharsets.UTF_8).lines().toList();
		int errors = THREADS * ERRORS_PER_THREAD;
		long errorLines = lines.stream().filter((line) -> line.startsWith("ERROR [")).count();
		long headers = lines.stream()
			.filter((line) -> line.startsWith("java.lang.IllegalStateException")
					|| line.startsWith("java.lang.UnsupportedOperationException"))
			.count();
		long oneLiners = lines.stream()
			.filter((line) -> line.contains(" (message and stack trace elided: seen "))
			.count();
		long causes = lines.stream().filter((line) -> line.startsWith("Caused by: ")).count();
		assertThat(errorLines).isEqualTo(errors);
		assertThat(headers).isEqualTo(errors);
		assertThat(oneLiners).isEqualTo(errors - 3 * 3);
		assertThat(causes).isEqualTo(2 * 3);
		assertThat(StackTraceThrottling.elidedCount() - elidedBefore).isEqualTo(oneLiners);
		// The last one-liner of each kind counts every occurrence of that kind.
		assertThat(lines).anySatisfy((line) -> assertThat(line).contains("seen " + (errors / 3) + " times"));
	}

}
