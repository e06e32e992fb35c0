package dev.safedefaults.system;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.testsupport.OnEveryJdk;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import static dev.safedefaults.testsupport.LoggingStopContract.LAST_LINE;
import static dev.safedefaults.testsupport.LoggingStopContract.PIPE_CAPACITY;
import static dev.safedefaults.testsupport.LoggingStopContract.completeText;
import static dev.safedefaults.testsupport.LoggingStopContract.observedStopBound;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The logging shutdown guarantee on the packaged sample app, stopped with SIGTERM behind
 * a slow and behind a stalled stdout (issue 16): every queued event is written within
 * {@code safe-defaults.logging.shutdown-timeout}; what is not is counted, WARN and ERROR
 * apart, in one last line; the JVM never hangs on a blocked stdout.
 * <p>
 * On JDK 25 too: the two stops behind a stalled stdout (signals, shutdown hooks,
 * {@code Runtime.halt}, request threads parked by the Disruptor); the slow reader's drain
 * exercises the same hooks, and runs on the baseline JDK only.
 */
class SampleAppLoggingShutdownIT {

	private static final String ERROR_MESSAGE = "Pricing failed for order";

	/** Where a request thread waits for a slot in a full ring buffer. */
	private static final String WAITING_FOR_A_SLOT = "AsyncLoggerDisruptor.enqueueLogMessageWhenQueueFull";

	@Test
	void slowStdoutGetsEveryErrorLineWhenTheTimeoutAllows() throws Exception {
		// A log shipper reading 200 KB/s, an error storm it fell behind on, then SIGTERM:
		// the
		// backlog (well over what the 0 ms stop wrote) drains within the 30 s
		// default.
		SampleAppProcess app = SampleAppProcess.startWithSlowStdout("shutdown-slow", List.of(), List.of(), 200_000);
		try {
			assertThat(app.isAlive()).as("started; log:\n%s", app.log()).isTrue();
			// The shipper falls behind during the storm (here: it pauses), so that
			// whatever the
			// machine's speed a backlog is queued at SIGTERM, then reads at its 200 KB/s
			// again.
			app.stallStdout();
			int failed = storm(app, 400, 4);
			app.resumeStdout();
			long sigterm = System.nanoTime();
			app.terminate();
			long readAtSigterm = Files.size(app.stdoutFile());
			Duration bound = observedStopBound(Duration.ofSeconds(30), Duration.ofSeconds(30));
			assertThat(app.awaitExit(bound.plusSeconds(30))).as("exited; log:\n%s", app.log()).isTrue();
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			app.close();
			assertThat(stop).as("stop within the documented bound and the margin for this machine").isLessThan(bound);
			String stdout = completeText(app.stdoutFile());
			assertThat(failed).isEqualTo(200);
			// More than a pipe's worth read after the signal: the app still had events
			// queued at
			// SIGTERM, so the drain was exercised.
			assertThat(Files.size(app.stdoutFile()) - readAtSigterm).as("bytes of stdout read after SIGTERM")
				.isGreaterThan(PIPE_CAPACITY);
			assertThat(count(stdout, ERROR_MESSAGE)).as("ERROR events written (stop took %s)", stop).isEqualTo(failed);
			assertThat(LAST_LINE.matcher(stdout + app.log()).find()).as("nothing reported unwritten").isFalse();
			assertThat(stdout).doesNotContain("shutdown timed out");
		}
		finally {
			app.close();
		}
	}

	@Test
	@OnEveryJdk
	void stalledStdoutStopsWithinTheTimeoutAndCountsExactlyWhatWasNotWritten() throws Exception {
		SampleAppProcess app = SampleAppProcess.start("shutdown-stalled", List.of(), List
			.of("--spring.lifecycle.timeout-per-shutdown-phase=5s", "--safe-defaults.logging.shutdown-timeout=5s"),
				true);
		Path fallback = null;
		try {
			assertThat(app.isAlive()).as("started; log:\n%s", app.log()).isTrue();
			fallback = Path.of(System.getProperty("java.io.tmpdir"),
					"safe-defaults-shutdown-" + app.handle().pid() + ".log");
			// The first failures of a kind print their whole stack trace: get them out
			// first.
			int failed = failures(app, 5);
			Path stdoutFile = app.stdoutFile();
			await("the first failures' lines written").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> count(completeText(stdoutFile), ERROR_MESSAGE) >= 5);
			app.stallStdout();
			// Enough to fill the pipe's buffer many times over: most of these stay
			// queued.
			failed += failures(app, 300);
			long sigterm = System.nanoTime();
			app.terminate();
			Duration bound = observedStopBound(Duration.ofSeconds(5), Duration.ofSeconds(5));
			assertThat(app.awaitExit(bound.plusSeconds(30))).as("exited; log:\n%s", app.log()).isTrue();
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			app.close();
			assertThat(stop).as("stop within the documented bound and the margin for this machine").isLessThan(bound);
			String stdout = completeText(app.stdoutFile());
			int written = count(stdout, ERROR_MESSAGE);
			assertThat(written).as("the stall held events back").isLessThan(failed);
			Matcher matcher = LAST_LINE.matcher(app.log());
			assertThat(matcher.find())
				.as("the count on stderr (failed %s, written %s, stop %s); stderr:\n%s\nstdout's end:\n%s", failed,
						written, stop, app.log(), stdout.substring(Math.max(0, stdout.length() - 2000)))
				.isTrue();
			long total = Long.parseLong(matcher.group(1));
			long severe = Long.parseLong(matcher.group(2));
			assertThat(severe).as("ERROR events enqueued %s, written %s", failed, written).isEqualTo(failed - written);
			assertThat(total).isGreaterThan(severe);
			assertThat(fallback).as("stdout was blocked: the line went to a file too").exists();
			assertThat(Files.readString(fallback)).contains(matcher.group());
		}
		finally {
			app.close();
			if (fallback != null) {
				Files.deleteIfExists(fallback);
			}
		}
	}

	@Test
	@OnEveryJdk
	void requestThreadsBlockedOnErrorBehindAStalledStdoutDoNotStretchTheStop() throws Exception {
		// The probe's scenario: a 5 s phase, the smallest ring, stdout stalled, request
		// threads waiting to queue an ERROR when SIGTERM comes (Tomcat's stop waits for
		// them). Since issue 49 a WARN or ERROR waits at most queue-full-timeout: only
		// queue-full-policy=block still holds them for as long as stdout stalls, which
		// the
		// stop must bound all the same.
		Duration phase = Duration.ofSeconds(5);
		Duration shutdownTimeout = Duration.ofSeconds(5);
		SampleAppProcess app = SampleAppProcess.start("shutdown-blocked",
				List.of("-Dsafe-defaults.logging.ring-buffer-size=128"),
				List.of("--spring.lifecycle.timeout-per-shutdown-phase=5s",
						"--safe-defaults.logging.shutdown-timeout=5s",
						"--safe-defaults.logging.queue-full-policy=block"),
				true);
		Path fallback = null;
		AtomicBoolean stopClients = new AtomicBoolean();
		List<Thread> clients = new ArrayList<>();
		try {
			assertThat(app.isAlive()).as("started; log:\n%s", app.log()).isTrue();
			fallback = Path.of(System.getProperty("java.io.tmpdir"),
					"safe-defaults-shutdown-" + app.handle().pid() + ".log");
			failures(app, 5);
			app.stallStdout();
			for (int t = 0; t < 8; t++) {
				Thread client = new Thread(() -> {
					while (!stopClients.get()) {
						try {
							app.get("/api/orders/1?fail=true");
						}
						catch (RuntimeException ex) {
							// the app has stopped
						}
					}
				});
				client.setDaemon(true);
				client.start();
				clients.add(client);
			}
			String dump = awaitRequestThreadsWaitingForASlot(app, 4);
			long sigterm = System.nanoTime();
			app.terminate();
			Duration bound = observedStopBound(phase, shutdownTimeout);
			assertThat(app.awaitExit(bound.plusSeconds(60))).as("exited; log:\n%s", app.log()).isTrue();
			Duration stop = Duration.ofNanos(System.nanoTime() - sigterm);
			stopClients.set(true);
			app.close();
			System.out.println("Blocked request threads: stop took " + stop + ", bound " + bound);
			assertThat(stop).as("from SIGTERM to exit; threads at SIGTERM:\n%s\nlog:\n%s", dump, app.log())
				.isLessThan(bound);
			Matcher matcher = LAST_LINE.matcher(app.log());
			assertThat(matcher.find()).as("the count on stderr before the exit; stderr:\n%s", app.log()).isTrue();
			assertThat(Long.parseLong(matcher.group(2))).as("ERROR events not written").isPositive();
		}
		finally {
			stopClients.set(true);
			app.close();
			if (fallback != null) {
				Files.deleteIfExists(fallback);
			}
		}
	}

	/**
	 * Waits until at least {@code n} request threads wait for a slot in the full ring
	 * buffer.
	 * @return the thread dump that showed them
	 */
	private static String awaitRequestThreadsWaitingForASlot(SampleAppProcess app, int n) {
		// A thread dump costs the app a safepoint and this machine a JVM start (jcmd):
		// one every half second, for at most a minute.
		AtomicReference<String> dump = new AtomicReference<>("");
		try {
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
				dump.set(app.threadDump());
				int waiting = 0;
				for (String thread : dump.get().split("\n\n")) {
					if (thread.contains("http-nio-") && thread.contains(WAITING_FOR_A_SLOT)) {
						waiting++;
					}
				}
				return waiting >= n;
			});
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError(
					"Fewer than " + n + " request threads waited for a slot; last dump:\n" + dump.get(), ex);
		}
		return dump.get();
	}

	/** Sends {@code n} failing requests, one after the other; returns how many failed. */
	private static int failures(SampleAppProcess app, int n) {
		int failed = 0;
		for (int i = 0; i < n; i++) {
			if (app.get("/api/orders/" + (1 + (i % 3)) + "?fail=true").statusCode() == 502) {
				failed++;
			}
		}
		return failed;
	}

	/**
	 * Sends {@code requests} requests from {@code threads} threads, every other one
	 * failing; returns how many failed.
	 */
	private static int storm(SampleAppProcess app, int requests, int threads) throws Exception {
		AtomicInteger next = new AtomicInteger();
		AtomicInteger failed = new AtomicInteger();
		List<Thread> clients = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			Thread client = new Thread(() -> {
				for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
					String path = "/api/orders/" + (1 + (i % 3)) + ((i % 2 == 0) ? "?fail=true" : "");
					if (app.get(path).statusCode() == 502) {
						failed.incrementAndGet();
					}
				}
			});
			client.start();
			clients.add(client);
		}
		for (Thread client : clients) {
			client.join();
		}
		return failed.get();
	}

	private static int count(String text, String needle) {
		int count = 0;
		for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
			count++;
		}
		return count;
	}

}
