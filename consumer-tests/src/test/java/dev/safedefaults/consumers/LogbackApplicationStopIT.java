package dev.safedefaults.consumers;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import dev.safedefaults.testsupport.Slow;
import org.junit.jupiter.api.Test;

import static dev.safedefaults.consumers.ConsumerApp.feature;
import static dev.safedefaults.testsupport.LoggingStopContract.LAST_LINE;
import static dev.safedefaults.testsupport.LoggingStopContract.PIPE_CAPACITY;
import static dev.safedefaults.testsupport.LoggingStopContract.completeText;
import static dev.safedefaults.testsupport.LoggingStopContract.count;
import static dev.safedefaults.testsupport.LoggingStopContract.observedStopBound;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Logback route's promises on a packaged application (issue 21): the
 * {@code boot40-logback} application on the keep-Logback route, its own
 * {@code logback-spring.xml} writing one JSON object per line to stdout, read by a log
 * shipper that falls behind or stalls. Requests that log at INFO are served with stdout
 * stalled and what their full queue discards is counted; at SIGTERM every queued ERROR is
 * written within {@code safe-defaults.logging.shutdown-timeout}, or counted in the stop's
 * last line, within the documented bound; a start that fails after the appenders were
 * wrapped still writes Boot's failure report.
 */
@Slow
class LogbackApplicationStopIT {

	private static final String LOGBACK_APP = "boot40-logback";

	private static final String KEEP_LOGBACK_JAR = LOGBACK_APP + "-keep-logback";

	/** An ERROR line of {@code /fail}, in the application's JSON format. */
	private static final Pattern ERROR_LINE = Pattern
		.compile("^\\{.*\"level\":\"ERROR\".*\"message\":\"order \\d+ failed\"\\}$", Pattern.MULTILINE);

	/** A WARN line of {@code /log?count=0}, in the application's JSON format. */
	private static final Pattern WARN_LINE = Pattern
		.compile("^\\{.*\"level\":\"WARN\".*\"message\":\"logged 0 lines\"\\}$", Pattern.MULTILINE);

	/** A log shipper that keeps up with 50 KB/s. */
	private static final long SLOW_READER = 50_000;

	@Test
	void withStdoutStalledInfoRequestsAreServedAndCountedThenASlowReaderGetsEveryErrorAtTheStop() throws Exception {
		ConsumerApp app = ConsumerApp.startJarWithSlowStdout(LOGBACK_APP, KEEP_LOGBACK_JAR, SLOW_READER,
				"--safe-defaults.logging.ring-buffer-size=1024");
		ExecutorService failing = Executors.newFixedThreadPool(4);
		try {
			assertThat(app.get("/info?count=3").body()).isEqualTo("logged 3");
			app.stallStdout();
			// Nobody reads stdout: four request threads at a time log far more INFO
			// events than the pipe and the queue hold, and every request is answered.
			for (int round = 0; round < 3; round++) {
				assertThat(app.getConcurrently(4, "/info?count=5000", Duration.ofSeconds(60)))
					.as("INFO-only requests with stdout stalled, round %s", round)
					.containsOnly("logged 5000");
			}
			long discarded = ConsumerAppsIT.discardedSoFar(feature(app.getJson("/actuator/safedefaults"), "logging"));
			assertThat(discarded).as("INFO events discarded and counted with stdout stalled").isPositive();
			// An error storm behind the full queue: each ERROR waits for room (never
			// discarded), and gets it once the shipper reads again, at its slow pace.
			int errors = 200;
			CompletableFuture<?>[] calls = IntStream.range(0, errors)
				.mapToObj((order) -> CompletableFuture.runAsync(
						() -> assertThat(app.get("/fail?order=" + order).body()).isEqualTo("failed " + order), failing))
				.toArray(CompletableFuture[]::new);
			app.resumeStdout();
			CompletableFuture.allOf(calls).get(120, TimeUnit.SECONDS);
			// The last ERRORs have just entered a full queue: SIGTERM with a backlog.
			long sigterm = System.nanoTime();
			app.terminate();
			long readAtSigterm = Files.size(app.stdoutFile());
			Duration bound = observedStopBound(Duration.ofSeconds(30), Duration.ofSeconds(30));
			assertThat(app.awaitExit(bound.plusSeconds(30))).as("exited; stderr:\n%s", app.log()).isTrue();
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			app.close();
			assertThat(stop).as("stop within the documented bound and the margin for this machine").isLessThan(bound);
			String stdout = completeText(app.stdoutFile());
			assertThat(Files.size(app.stdoutFile()) - readAtSigterm).as("bytes of stdout read after SIGTERM")
				.isGreaterThan(PIPE_CAPACITY);
			assertThat(count(ERROR_LINE, stdout))
				.as("ERROR lines written, in the application's format (stop took %s)", stop)
				.isEqualTo(errors);
			assertThat(LAST_LINE.matcher(stdout + app.log()).find()).as("nothing reported unwritten").isFalse();
		}
		finally {
			failing.shutdownNow();
			app.close();
		}
	}

	@Test
	void withStdoutStalledRequestsLoggingAWarnAnswerWithinTheBoundAndTheLossIsSummarisedOnceStdoutIsRead()
			throws Exception {
		// Issue 49 on the keep-Logback route: the default queue-full-timeout of 2 s.
		Duration bound = Duration.ofSeconds(2);
		ConsumerApp app = ConsumerApp.startJarWithSlowStdout(LOGBACK_APP, KEEP_LOGBACK_JAR, SLOW_READER,
				"--safe-defaults.logging.ring-buffer-size=1024");
		try {
			assertThat(app.get("/info?count=3").body()).isEqualTo("logged 3");
			int requests = 50;
			// The control: the same 50 requests behind a healthy stdout, and the
			// process's
			// CPU over the 10 s from their start.
			Batch healthy = warnTogether(app, requests);
			app.stallStdout();
			// More than the pipe and the queue hold: the queue is full, INFO discarded.
			assertThat(app.get("/info?count=5000").body()).isEqualTo("logged 5000");
			assertThat(ConsumerAppsIT.discardedSoFar(feature(app.getJson("/actuator/safedefaults"), "logging")))
				.isPositive();
			long idleCpu = cpuNanosOver(app, Duration.ofSeconds(10));
			// Each logs one WARN on the full queue behind the stdout nobody reads.
			Batch stalled = warnTogether(app, requests);
			long afterCpu = cpuNanosOver(app, Duration.ofSeconds(10));
			System.out.printf(
					"LogbackApplicationStopIT: %d requests logging a WARN answered within %d ms behind a stalled "
							+ "stdout and a full queue; process CPU over 10 s from their start: %d ms (the same "
							+ "requests behind a healthy stdout: %d ms, %.2fx); over the 10 s after: %d ms (idle with "
							+ "the same full queue: %d ms)%n",
					requests, stalled.answered().toMillis(), stalled.cpuNanos() / 1_000_000,
					healthy.cpuNanos() / 1_000_000, (double) stalled.cpuNanos() / healthy.cpuNanos(),
					afterCpu / 1_000_000, idleCpu / 1_000_000);
			assertThat(stalled.answered()).as("every request answered within the bound plus 2 s")
				.isLessThanOrEqualTo(bound.plusSeconds(2));
			assertThat(stalled.cpuNanos())
				.as("CPU of the stalled batch against %s ns behind a healthy stdout", healthy.cpuNanos())
				.isLessThanOrEqualTo(healthy.cpuNanos() * 3 / 2);
			assertThat(afterCpu).as("CPU once they answered against %s ns idle: nothing left waiting", idleCpu)
				.isLessThanOrEqualTo(idleCpu * 3 / 2 + Duration.ofMillis(50).toNanos());
			assertThat(app.getJson("/actuator/health/safe-defaults").toString()).as("the stall on the health group")
				.contains("logging.output-stalled");
			app.resumeStdout();
			Pattern summary = Pattern.compile("could not take (\\d+) WARN and (\\d+) ERROR events from ");
			await("the line that summarises the loss").atMost(Duration.ofSeconds(120))
				.until(() -> summary.matcher(completeText(app.stdoutFile())).find());
			String stdout = completeText(app.stdoutFile());
			Matcher lost = summary.matcher(stdout);
			assertThat(lost.find()).isTrue();
			int written = count(WARN_LINE, stdout);
			assertThat(Integer.parseInt(lost.group(1)))
				.as("WARN events lost: logged %s, written %s", 2 * requests, written)
				.isEqualTo(2 * requests - written)
				.isPositive();
		}
		finally {
			app.close();
		}
	}

	/**
	 * {@code /log?count=0} from as many callers at once: each request logs one WARN.
	 * @return how long the last took to answer, and the process's CPU over the 10 s from
	 * their start
	 */
	private static Batch warnTogether(ConsumerApp app, int requests) throws InterruptedException {
		long cpuBefore = cpuNanos(app);
		long sent = System.nanoTime();
		assertThat(app.getConcurrently(requests, "/log?count=0", Duration.ofSeconds(60))).containsOnly("logged 0");
		Duration answered = Duration.ofNanos(System.nanoTime() - sent);
		long window = Duration.ofSeconds(10).toNanos() - (System.nanoTime() - sent);
		if (window > 0) {
			TimeUnit.NANOSECONDS.sleep(window);
		}
		return new Batch(answered, cpuNanos(app) - cpuBefore);
	}

	private record Batch(Duration answered, long cpuNanos) {
	}

	private static long cpuNanosOver(ConsumerApp app, Duration window) throws InterruptedException {
		long before = cpuNanos(app);
		TimeUnit.NANOSECONDS.sleep(window.toNanos());
		return cpuNanos(app) - before;
	}

	private static long cpuNanos(ConsumerApp app) {
		return app.handle().info().totalCpuDuration().orElseThrow().toNanos();
	}

	@Test
	void withStdoutStalledAtTheStopEveryErrorNotWrittenIsCountedInTheLastLine() throws Exception {
		ConsumerApp app = ConsumerApp.startJarWithSlowStdout(LOGBACK_APP, KEEP_LOGBACK_JAR, SLOW_READER,
				"--safe-defaults.logging.ring-buffer-size=4096", "--spring.lifecycle.timeout-per-shutdown-phase=5s",
				"--safe-defaults.logging.shutdown-timeout=5s");
		Path fallback = Path.of(System.getProperty("java.io.tmpdir"),
				"safe-defaults-shutdown-" + app.handle().pid() + ".log");
		try {
			assertThat(app.get("/info?count=3").body()).isEqualTo("logged 3");
			app.stallStdout();
			// More than the pipe holds, less than the queue: the writer blocks on stdout,
			// the rest waits in the queue, nothing is discarded.
			assertThat(app.get("/info?count=1000").body()).isEqualTo("logged 1000");
			int errors = 500;
			for (int order = 0; order < errors; order++) {
				assertThat(app.get("/fail?order=" + order).body()).isEqualTo("failed " + order);
			}
			long sigterm = System.nanoTime();
			app.terminate();
			Duration bound = observedStopBound(Duration.ofSeconds(5), Duration.ofSeconds(5));
			assertThat(app.awaitExit(bound.plusSeconds(30))).as("exited; stderr:\n%s", app.log()).isTrue();
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			app.close();
			assertThat(stop).as("stop within the documented bound and the margin for this machine").isLessThan(bound);
			int written = count(ERROR_LINE, completeText(app.stdoutFile()));
			assertThat(written).as("the stall held ERROR events back").isLessThan(errors);
			Matcher matcher = LAST_LINE.matcher(app.log());
			assertThat(matcher.find())
				.as("the count on stderr (errors %s, written %s, stop %s); stderr:\n%s", errors, written, stop,
						app.log())
				.isTrue();
			assertThat(Long.parseLong(matcher.group(2)))
				.as("ERROR events not written: logged %s, written %s", errors, written)
				.isEqualTo(errors - written);
			assertThat(Long.parseLong(matcher.group(1))).as("all events not written")
				.isGreaterThan(Long.parseLong(matcher.group(2)));
			assertThat(fallback).as("stdout was blocked: the line went to a file too").exists();
			assertThat(Files.readString(fallback)).contains(matcher.group());
		}
		finally {
			app.close();
			Files.deleteIfExists(fallback);
		}
	}

	@Test
	void aStartThatFailsAfterTheAppendersWereWrappedStillWritesBootsFailureReport() throws IOException {
		// Tomcat cannot bind: the start fails after the context's beans (the wrapping
		// among them) exist, so Boot's report goes through the wrapped appender's queue.
		try (ServerSocket taken = new ServerSocket(0)) {
			String log = ConsumerApp.runToExit(LOGBACK_APP, KEEP_LOGBACK_JAR, "--server.port=" + taken.getLocalPort());
			assertThat(log).as("Boot's failure report, in the application's format")
				.containsPattern("\\{.*\"level\":\"ERROR\".*APPLICATION FAILED TO START.*\\}")
				.contains("Port " + taken.getLocalPort() + " was already in use");
		}
	}

}
