package dev.safedefaults.logging.log4j2;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.logging.QueueFullMode;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The guarantees of the starter's Log4j defaults, on a real all-async Log4j context with
 * the Disruptor the starter ships and its queue-full policy (incident 2). No timing
 * assertion: a stalled appender is released only after the logging threads have returned.
 */
@OnEveryJdk
class AsyncLoggingGuaranteesTests {

	private static final int RING = 128;

	private final ExecutorService threads = Executors.newFixedThreadPool(4);

	private AsyncLoggerContext context;

	private RecordingAppender appender;

	@BeforeEach
	void resetPolicy() {
		CountingQueueFullPolicy.configure(QueueFullMode.DISCARD, Level.INFO);
	}

	@AfterEach
	void stop() {
		this.threads.shutdownNow();
		if (this.appender != null) {
			this.appender.release();
		}
		if (this.context != null) {
			this.context.stop(10, TimeUnit.SECONDS);
		}
	}

	private Logger start(boolean stalled) {
		return start(stalled, RING);
	}

	private Logger start(boolean stalled, int ring) {
		// Read by Log4j when the context's disruptor starts; the starter's PropertySource
		// supplies the selector and the queue-full policy.
		System.setProperty("log4j2.asyncLoggerRingBufferSize", String.valueOf(ring));
		try {
			this.context = new AsyncLoggerContext("guarantees-" + System.nanoTime());
			this.appender = RecordingAppender.startAsOnlyAppender(this.context, stalled);
		}
		finally {
			System.clearProperty("log4j2.asyncLoggerRingBufferSize");
		}
		return this.context.getLogger("guarantees");
	}

	private List<Future<Integer>> logFromFourThreads(Logger logger, Level level, int perThread) {
		List<Callable<Integer>> tasks = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			tasks.add(() -> {
				for (int i = 0; i < perThread; i++) {
					logger.log(level, "event {}", i);
				}
				return perThread;
			});
		}
		return tasks.stream().map(this.threads::submit).toList();
	}

	private static void awaitAll(List<Future<Integer>> futures) throws Exception {
		for (Future<Integer> future : futures) {
			future.get(2, TimeUnit.MINUTES);
		}
	}

	@Test
	void aStalledAppenderNeverBlocksAThreadLoggingInfoAndEveryDiscardIsCounted() throws Exception {
		Logger logger = start(true);
		long discardedBefore = CountingQueueFullPolicy.discardedCount();
		List<Future<Integer>> futures = logFromFourThreads(logger, Level.INFO, 2_000);
		// All 8,000 calls return while the appender is still held: none of them waited.
		awaitAll(futures);
		long discarded = CountingQueueFullPolicy.discardedCount() - discardedBefore;
		this.appender.release();
		this.context.stop(30, TimeUnit.SECONDS);
		assertThat(discarded).isPositive();
		assertThat(this.appender.written(Level.INFO) + discarded).isEqualTo(8_000);
	}

	@Test
	void warnAndErrorAreNeverDiscardedTheyWaitForSpace() throws Exception {
		Logger logger = start(true);
		awaitAll(logFromFourThreads(logger, Level.INFO, 500));
		assertThat(this.context.createRingBufferAdmin().getRemainingCapacity()).isZero();
		long discardedBefore = CountingQueueFullPolicy.discardedCount();
		List<Future<Integer>> warnings = logFromFourThreads(logger, Level.WARN, 250);
		List<Future<Integer>> errors = logFromFourThreads(logger, Level.ERROR, 250);
		this.appender.release();
		awaitAll(warnings);
		awaitAll(errors);
		this.context.stop(30, TimeUnit.SECONDS);
		assertThat(this.appender.written(Level.WARN)).isEqualTo(1_000);
		assertThat(this.appender.written(Level.ERROR)).isEqualTo(1_000);
		assertThat(CountingQueueFullPolicy.discardedCount()).isEqualTo(discardedBefore);
	}

	@Test
	void blockModeMakesInfoWaitInsteadOfDiscarding() throws Exception {
		CountingQueueFullPolicy.configure(QueueFullMode.BLOCK, Level.INFO);
		Logger logger = start(true);
		long discardedBefore = CountingQueueFullPolicy.discardedCount();
		List<Future<Integer>> futures = logFromFourThreads(logger, Level.INFO, 500);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.context.createRingBufferAdmin().getRemainingCapacity() == 0);
		assertThat(futures).anyMatch((future) -> !future.isDone());
		this.appender.release();
		awaitAll(futures);
		this.context.stop(30, TimeUnit.SECONDS);
		assertThat(this.appender.written(Level.INFO)).isEqualTo(2_000);
		assertThat(CountingQueueFullPolicy.discardedCount()).isEqualTo(discardedBefore);
	}

	@Test
	void theThresholdCanBeLoweredAtRuntime() throws Exception {
		CountingQueueFullPolicy.configure(QueueFullMode.DISCARD, Level.DEBUG);
		Logger logger = start(true);
		awaitAll(logFromFourThreads(logger, Level.DEBUG, 500));
		long discardedBefore = CountingQueueFullPolicy.discardedCount();
		List<Future<Integer>> info = logFromFourThreads(logger, Level.INFO, 100);
		this.appender.release();
		awaitAll(info);
		this.context.stop(30, TimeUnit.SECONDS);
		assertThat(this.appender.written(Level.INFO)).isEqualTo(400);
		assertThat(CountingQueueFullPolicy.discardedCount()).isEqualTo(discardedBefore);
	}

	@Test
	void stoppingTheContextWritesEverythingStillQueued() throws Exception {
		Logger logger = start(true, 4096);
		for (int i = 0; i < 3_000; i++) {
			logger.info("before shutdown {}", i);
		}
		this.appender.release();
		// What Boot's logging shutdown handler does when the application context closes.
		this.context.stop();
		assertThat(this.appender.written(Level.INFO)).isEqualTo(3_000);
	}

}
