package dev.safedefaults.logging.log4j2;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import dev.safedefaults.StarterThreads;
import dev.safedefaults.logging.DroppedLogEvent;
import dev.safedefaults.logging.LogOutputStall;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.QueueFullMode;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.NullConfiguration;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bound on a WARN or ERROR log call on Log4j2 (issue 49), on a real all-async context
 * with the starter's queue-full policy: a stalled output costs one wait of the bound,
 * then WARN and ERROR are dropped at once and counted by level until the buffer drains,
 * when one line says what was lost; a slow but live output still gets every one; the
 * starter's own threads never wait.
 */
@OnEveryJdk
class SevereEventWaitTests {

	private static final int RING = 128;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<String> summaries = new CopyOnWriteArrayList<>();

	private AsyncLoggerContext context;

	private RecordingAppender appender;

	private CountingQueueFullPolicy.Settings settings;

	private SevereEventWait severe;

	@AfterEach
	void stop() {
		this.threads.shutdownNow();
		if (this.appender != null) {
			this.appender.release();
		}
		if (this.settings != null) {
			CountingQueueFullPolicy.unregister(this.settings);
		}
		if (this.severe != null) {
			this.severe.close();
		}
		if (this.context != null) {
			this.context.stop(10, TimeUnit.SECONDS);
		}
	}

	/**
	 * Starts a context of {@value #RING} slots (read by Log4j when its disruptor starts)
	 * with the given output as its root logger's only appender.
	 */
	private void start(Function<AsyncLoggerContext, ?> output) {
		System.setProperty("log4j2.asyncLoggerRingBufferSize", String.valueOf(RING));
		try {
			this.context = new AsyncLoggerContext("severe-" + System.nanoTime());
			output.apply(this.context);
		}
		finally {
			System.clearProperty("log4j2.asyncLoggerRingBufferSize");
		}
	}

	private LogStalls boundedBy(LogStalls stalls) {
		this.severe = new SevereEventWait(RingBufferBacklog.of(this.context), stalls.output("the ring buffer"),
				this.summaries::add);
		this.settings = CountingQueueFullPolicy.register(QueueFullMode.DISCARD, Level.INFO, this.severe);
		return stalls;
	}

	/**
	 * A context whose only output holds every event, this test's settings in force (a
	 * context another test class left open may have its own, in block mode), and its ring
	 * buffer filled with INFO events, which the full buffer then discards.
	 */
	private Logger stalledAndFull(LogStalls stalls) throws Exception {
		start((context) -> this.appender = RecordingAppender.startAsOnlyAppender(context, true));
		boundedBy(stalls);
		Logger logger = this.context.getLogger("severe");
		for (int i = 0; i < 2 * RING; i++) {
			logger.info("filler {}", i);
		}
		assertThat(this.appender.awaitEntered()).isTrue();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.context.createRingBufferAdmin().getRemainingCapacity() == 0);
		return logger;
	}

	@Test
	void aStalledOutputCostsOneWaitOfTheBoundThenWarnAndErrorAreDroppedAtOnceAndCountedByLevel() throws Exception {
		LogStalls stalls = new LogStalls(Duration.ofMillis(400));
		Logger logger = stalledAndFull(stalls);
		long start = System.nanoTime();
		logger.warn("the first warning waits the bound");
		Duration first = Duration.ofNanos(System.nanoTime() - start);
		assertThat(first).isGreaterThanOrEqualTo(Duration.ofMillis(400)).isLessThan(Duration.ofSeconds(30));
		assertThat(stalls.stalled()).extracting(LogOutputStall::name).containsExactly("the ring buffer");
		// 50 requests at once: each would wait the bound again if the stall were
		// forgotten.
		Duration later = logFromFiftyThreads(logger);
		assertThat(later).as("50 WARN and 50 ERROR calls once the stall is known").isLessThan(Duration.ofMillis(400));
		assertThat(stalls.warnDropped()).isEqualTo(51);
		assertThat(stalls.errorDropped()).isEqualTo(50);
		List<DroppedLogEvent> recent = stalls.recent();
		assertThat(recent).hasSize(LogStalls.RECENT);
		assertThat(recent.get(0).source()).startsWith(getClass().getName() + ".");
		assertThat(this.summaries).isEmpty();
	}

	@Test
	void whenTheOutputMovesAgainOneLineSaysHowManyWereLostFromWhenToWhenTheFirstAndTheLast() throws Exception {
		LogStalls stalls = new LogStalls(Duration.ofMillis(200));
		Logger logger = stalledAndFull(stalls);
		logger.warn("waits, then dropped");
		logFromFiftyThreads(logger);
		this.appender.release();
		await().atMost(Duration.ofSeconds(30)).until(() -> !this.summaries.isEmpty());
		assertThat(this.summaries).singleElement()
			.asString()
			.contains("the ring buffer could not take 51 WARN and 50 ERROR events from ")
			.contains("First: ")
			.contains(" WARN [")
			.contains(" | last: ")
			.contains(getClass().getName() + ".");
		assertThat(stalls.stalled()).isEmpty();
		// Moved: the next WARN on a full buffer waits again before it is dropped.
		assertThat(stalls.output("another").waitNanos()).isEqualTo(Duration.ofMillis(200).toNanos());
	}

	@Test
	void aSlowButLiveOutputGetsEveryWarnAndErrorAndNothingIsDropped() throws Exception {
		SlowAppender slow = new SlowAppender();
		start((context) -> {
			context.start(new NullConfiguration());
			slow.start();
			Configuration config = context.getConfiguration();
			config.addAppender(slow);
			LoggerConfig root = config.getRootLogger();
			root.getAppenders().keySet().forEach(root::removeAppender);
			root.addAppender(slow, Level.ALL, null);
			root.setLevel(Level.ALL);
			context.updateLoggers();
			return slow;
		});
		LogStalls stalls = boundedBy(new LogStalls(Duration.ofSeconds(2)));
		Logger logger = this.context.getLogger("slow");
		List<Future<?>> futures = new ArrayList<>();
		for (int t = 0; t < 8; t++) {
			futures.add(this.threads.submit(() -> {
				for (int i = 0; i < 100; i++) {
					logger.warn("warning {}", i);
					logger.error("error {}", i);
				}
			}));
		}
		for (Future<?> future : futures) {
			future.get(2, TimeUnit.MINUTES);
		}
		this.context.stop(60, TimeUnit.SECONDS);
		assertThat(slow.written).as("the ring of %s slots was full while they logged", RING).isEqualTo(1_600);
		assertThat(stalls.warnDropped() + stalls.errorDropped()).isZero();
		assertThat(slow.sawAFullBuffer).isTrue();
	}

	@Test
	void theStartersOwnThreadsNeverWaitTheirEventsAreDroppedAndCountedWithoutAStall() throws Exception {
		LogStalls stalls = new LogStalls(Duration.ofMinutes(1));
		Logger logger = stalledAndFull(stalls);
		Thread watch = StarterThreads.newThread(() -> logger.warn("the stuck-request watch's line"),
				"safe-defaults-test");
		watch.start();
		watch.join(Duration.ofSeconds(30).toMillis());
		assertThat(watch.isAlive()).as("a starter thread waiting on the log").isFalse();
		assertThat(stalls.warnDropped()).isEqualTo(1);
		assertThat(stalls.stalled()).isEmpty();
	}

	private Duration logFromFiftyThreads(Logger logger) throws Exception {
		List<Future<?>> futures = new ArrayList<>();
		long start = System.nanoTime();
		for (int t = 0; t < 50; t++) {
			int request = t;
			futures.add(this.threads.submit(() -> {
				logger.warn("request {} warns", request);
				logger.error("request {} fails", request);
			}));
		}
		for (Future<?> future : futures) {
			future.get(2, TimeUnit.MINUTES);
		}
		return Duration.ofNanos(System.nanoTime() - start);
	}

	/** An output that takes 0.2 ms per event: far slower than eight threads log. */
	private final class SlowAppender extends AbstractAppender {

		private volatile int written;

		private volatile boolean sawAFullBuffer;

		SlowAppender() {
			super("slow", null, null, true, Property.EMPTY_ARRAY);
		}

		@Override
		public void append(LogEvent event) {
			if (SevereEventWaitTests.this.context.createRingBufferAdmin().getRemainingCapacity() == 0) {
				this.sawAFullBuffer = true;
			}
			LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
			this.written++;
		}

	}

}
