package dev.safedefaults.benchmarks.logging;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.logging.log4j2.CountingQueueFullPolicy;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * One logging setup in its own JVM (Log4j's context selector is fixed per JVM): four
 * threads log INFO with a ~20 µs pause between calls, and each call's cost on the calling
 * thread is recorded. With {@code stalled}, the appender is held after warm-up, as when a
 * log shipper stops reading, and the run is cut off after a few seconds; threads still
 * inside a log call then are reported as blocked.
 */
public final class LoggingLatencyWorker {

	private static final int THREADS = 4;

	private LoggingLatencyWorker() {
	}

	public static void main(String[] args) throws Exception {
		boolean stalled = Boolean.parseBoolean(args[0]);
		int calls = Integer.parseInt(args[1]);
		int warmup = Integer.parseInt(args[2]);
		Logger logger = LogManager.getLogger("bench");
		StallingAppender stall = new StallingAppender();
		if (stalled) {
			LoggerContext context = (LoggerContext) LogManager.getContext(false);
			stall.start();
			LoggerConfig config = context.getConfiguration().getLoggerConfig("bench");
			config.addAppender(stall, Level.ALL, null);
			context.updateLoggers();
		}
		run(logger, warmup, null, Long.MAX_VALUE);
		long[][] samples = new long[THREADS][calls];
		if (stalled) {
			stall.hold();
		}
		long deadline = stalled ? System.nanoTime() + TimeUnit.SECONDS.toNanos(5) : Long.MAX_VALUE;
		int[] done = run(logger, calls, samples, deadline);
		int blocked = (int) Arrays.stream(done).filter((n) -> n < 0).count();
		stall.release();
		long[] all = Arrays.stream(samples)
			.flatMapToLong((s) -> Arrays.stream(s).filter((v) -> v > 0))
			.sorted()
			.toArray();
		double mean = Arrays.stream(all).average().orElse(Double.NaN);
		System.out.printf("RESULT calls=%d mean=%.0f p50=%d p99=%d blocked=%d discarded=%d%n", all.length, mean,
				percentile(all, 0.50), percentile(all, 0.99), blocked, discarded());
		System.out.flush();
		Runtime.getRuntime().halt(0);
	}

	private static long discarded() {
		try {
			return CountingQueueFullPolicy.discardedCount();
		}
		catch (Throwable ex) {
			return -1;
		}
	}

	/**
	 * Runs the threads; returns per thread how many calls it completed, or -1 when it was
	 * still inside a log call 5 s after the deadline.
	 */
	private static int[] run(Logger logger, int calls, long[][] samples, long deadline) throws InterruptedException {
		CountDownLatch finished = new CountDownLatch(THREADS);
		AtomicInteger[] completed = new AtomicInteger[THREADS];
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			int thread = t;
			completed[t] = new AtomicInteger();
			Thread worker = new Thread(() -> {
				long sink = 0;
				for (int i = 0; i < calls && System.nanoTime() < deadline; i++) {
					sink += work();
					long start = System.nanoTime();
					logger.info("order {} loaded for customer {}", i, thread);
					long took = System.nanoTime() - start;
					if (samples != null) {
						samples[thread][i] = Math.max(1, took);
					}
					completed[thread].incrementAndGet();
				}
				if (sink == 42) {
					System.out.print("");
				}
				finished.countDown();
			}, "bench-" + t);
			worker.setDaemon(true);
			threads.add(worker);
			worker.start();
		}
		boolean allDone = (deadline == Long.MAX_VALUE) ? finished.await(10, TimeUnit.MINUTES)
				: finished.await(TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()) + 5, TimeUnit.SECONDS);
		int[] result = new int[THREADS];
		for (int t = 0; t < THREADS; t++) {
			result[t] = (!allDone && threads.get(t).isAlive()) ? -1 : completed[t].get();
		}
		return result;
	}

	/**
	 * A pause of ~20 µs (more, as the OS rounds it up) between two log calls, like a
	 * request thread waiting on I/O: it leaves the CPU to the logging threads, so the
	 * figures show the cost of the call rather than four threads fighting over two cores.
	 */
	private static long work() {
		java.util.concurrent.locks.LockSupport.parkNanos(20_000);
		return 1;
	}

	private static long percentile(long[] sorted, double p) {
		return (sorted.length == 0) ? -1 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
	}

	/** An appender that can be held, like a log consumer that stops reading. */
	static final class StallingAppender extends AbstractAppender {

		private volatile CountDownLatch latch = new CountDownLatch(0);

		StallingAppender() {
			super("stall", null, null, true, Property.EMPTY_ARRAY);
		}

		void hold() {
			this.latch = new CountDownLatch(1);
		}

		void release() {
			this.latch.countDown();
		}

		@Override
		public void append(LogEvent event) {
			try {
				this.latch.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
