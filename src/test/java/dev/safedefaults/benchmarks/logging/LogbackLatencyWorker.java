package dev.safedefaults.benchmarks.logging;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import dev.safedefaults.logging.log4j2.CountingQueueFullPolicy;
import org.apache.logging.log4j.LogManager;
import org.slf4j.ILoggerFactory;

/**
 * One setup of {@link LogbackLatencyBenchmark} in its own JVM: four threads log with a
 * ~20 µs pause between calls to a console appender whose stdout is slowed (a fixed delay
 * per line) or stalled (held, like a log shipper that stops reading), and each call's
 * cost on the calling thread is recorded.
 * <p>
 * Logback is driven through its own {@code LoggerContext}, configured by Joran, never
 * through SLF4J's provider lookup: the class path also holds Log4j2's SLF4J provider.
 * Logback is not on this module's compile class path (Boot would choose it in every other
 * test and benchmark), so the few Logback calls made to set a context up are reflective;
 * the log call itself goes through {@code org.slf4j.Logger}, which Logback's logger
 * implements.
 */
public final class LogbackLatencyWorker {

	private static final int THREADS = 4;

	private static final long SLOW_NANOS_PER_LINE = 50_000;

	private LogbackLatencyWorker() {
	}

	/** A log call at a level: 0 INFO, 1 WARN, 2 ERROR. */
	interface LogCall {

		void log(int level, int i, int thread);

	}

	public static void main(String[] args) throws Exception {
		String setup = args[0];
		String scenario = args[1];
		int calls = Integer.parseInt(args[2]);
		int warmup = Integer.parseInt(args[3]);
		boolean mixed = !scenario.equals("stalled-info");
		PrintStream out = System.out;
		Stdout stdout = new Stdout(Path.of(System.getProperty("bench.logFile")));
		// Before any logging system starts: Log4j2's console keeps the stream it finds.
		System.setOut(new PrintStream(stdout, false, StandardCharsets.UTF_8));
		LongSupplier discarded = () -> -1;
		LogCall call;
		if (setup.equals("log4j2-starter")) {
			org.apache.logging.log4j.Logger logger = LogManager.getLogger("bench");
			call = (level, i, thread) -> {
				switch (level) {
					case 1 -> logger.warn("order {} delayed for customer {}", i, thread);
					case 2 -> logger.error("order {} failed for customer {}", i, thread);
					default -> logger.info("order {} loaded for customer {}", i, thread);
				}
			};
			discarded = CountingQueueFullPolicy::discardedCount;
		}
		else {
			Object context = logback(setup.equals("logback-async") ? "logback-async.xml" : "logback-plain.xml");
			if (setup.equals("logback-starter")) {
				discarded = wrap(context);
			}
			org.slf4j.Logger logger = ((ILoggerFactory) context).getLogger("bench");
			call = (level, i, thread) -> {
				switch (level) {
					case 1 -> logger.warn("order {} delayed for customer {}", i, thread);
					case 2 -> logger.error("order {} failed for customer {}", i, thread);
					default -> logger.info("order {} loaded for customer {}", i, thread);
				}
			};
		}
		call.log(0, -1, -1);
		Thread.sleep(500);
		if (stdout.lines.get() != 1) {
			out.println("The setup wrote " + stdout.lines.get() + " lines for one call, not 1");
			Runtime.getRuntime().halt(1);
		}
		AtomicLong[] logged = { new AtomicLong(1), new AtomicLong(), new AtomicLong() };
		run(call, warmup, null, Long.MAX_VALUE, mixed, logged);
		long[][] samples = new long[THREADS][calls];
		if (scenario.equals("slow")) {
			stdout.delayNanos = SLOW_NANOS_PER_LINE;
		}
		else {
			stdout.hold();
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		int[] done = run(call, calls, samples, deadline, mixed, logged);
		int blocked = (int) Arrays.stream(done).filter((n) -> n < 0).count();
		stdout.delayNanos = 0;
		stdout.release();
		// Every thread leaves its call now; then what was queued is written, or counted.
		long severeLogged;
		long written = -1;
		long stableSince = System.nanoTime();
		long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (System.nanoTime() < giveUp) {
			Thread.sleep(100);
			long now = stdout.lines.get();
			if (now != written) {
				written = now;
				stableSince = System.nanoTime();
			}
			else if (System.nanoTime() - stableSince > TimeUnit.SECONDS.toNanos(2)) {
				break;
			}
		}
		severeLogged = logged[1].get() + logged[2].get();
		long[] all = Arrays.stream(samples)
			.flatMapToLong((s) -> Arrays.stream(s).filter((v) -> v > 0))
			.sorted()
			.toArray();
		double mean = Arrays.stream(all).average().orElse(Double.NaN);
		out.printf(
				"RESULT calls=%d mean=%.0f p50=%d p99=%d blocked=%d discarded=%d infoLogged=%d infoWritten=%d severeLogged=%d severeWritten=%d%n",
				all.length, mean, percentile(all, 0.50), percentile(all, 0.99), blocked, discarded.getAsLong(),
				logged[0].get(), stdout.lines.get() - stdout.severe.get(), severeLogged, stdout.severe.get());
		out.flush();
		Runtime.getRuntime().halt(0);
	}

	/** A Logback context configured by Joran from one of the benchmark's files. */
	private static Object logback(String file) throws Exception {
		Class<?> contextType = Class.forName("ch.qos.logback.classic.LoggerContext");
		Object context = contextType.getConstructor().newInstance();
		// What SLF4J's Logback provider would set: an event reads the MDC.
		contextType.getMethod("setMDCAdapter", org.slf4j.spi.MDCAdapter.class)
			.invoke(context,
					Class.forName("ch.qos.logback.classic.util.LogbackMDCAdapter").getConstructor().newInstance());
		Class<?> joran = Class.forName("ch.qos.logback.classic.joran.JoranConfigurator");
		Object configurator = joran.getConstructor().newInstance();
		joran.getMethod("setContext", Class.forName("ch.qos.logback.core.Context")).invoke(configurator, context);
		URL url = LogbackLatencyWorker.class.getResource("/benchmarks/logging/" + file);
		joran.getMethod("doConfigure", URL.class).invoke(configurator, url);
		contextType.getMethod("start").invoke(context);
		return context;
	}

	/**
	 * The starter's wrapping, as its auto-configuration applies it with the defaults: a
	 * queue of the default ring size per appender, INFO and below discarded (and counted)
	 * when full.
	 */
	private static LongSupplier wrap(Object context) throws Exception {
		Class<?> level = Class.forName("ch.qos.logback.classic.Level");
		Class<?> settingsType = Class.forName("dev.safedefaults.logging.logback.WrappingSettings");
		Constructor<?> settingsConstructor = settingsType.getConstructor(int.class, boolean.class, level);
		Object settings = settingsConstructor.newInstance(
				dev.safedefaults.logging.LoggingDefaultsProperties.DEFAULT_RING_BUFFER_SIZE, true,
				level.getField("INFO").get(null));
		Class<?> wrappingType = Class.forName("dev.safedefaults.logging.logback.LogbackAsyncWrapping");
		Object wrapping = wrappingType.getConstructor(context.getClass(), settingsType).newInstance(context, settings);
		Object wrapped = wrappingType.getMethod("wrap").invoke(wrapping);
		if (!Integer.valueOf(1).equals(wrapped)) {
			throw new IllegalStateException("Expected one appender wrapped, got " + wrapped);
		}
		java.lang.reflect.Method count = settingsType.getMethod("discardedCount");
		return () -> {
			try {
				return (long) count.invoke(settings);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException(ex);
			}
		};
	}

	/**
	 * Runs the threads; returns per thread how many calls it completed, or -1 when it was
	 * still inside a log call 5 s after the deadline. Mixed: one call in 50 is a WARN,
	 * one in 200 an ERROR (instead of that WARN), the rest INFO.
	 */
	private static int[] run(LogCall call, int calls, long[][] samples, long deadline, boolean mixed,
			AtomicLong[] logged) throws InterruptedException {
		CountDownLatch finished = new CountDownLatch(THREADS);
		AtomicInteger[] completed = new AtomicInteger[THREADS];
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			int thread = t;
			completed[t] = new AtomicInteger();
			Thread worker = new Thread(() -> {
				for (int i = 0; i < calls && System.nanoTime() < deadline; i++) {
					LockSupport.parkNanos(20_000);
					int level = (!mixed) ? 0 : (i % 200 == 199) ? 2 : (i % 50 == 49) ? 1 : 0;
					long start = System.nanoTime();
					call.log(level, i, thread);
					long took = System.nanoTime() - start;
					logged[level].incrementAndGet();
					if (samples != null) {
						samples[thread][i] = Math.max(1, took);
					}
					completed[thread].incrementAndGet();
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

	private static long percentile(long[] sorted, double p) {
		return (sorted.length == 0) ? -1 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
	}

	/**
	 * The process's stdout as the benchmark sees it: written to a file, slowed by a fixed
	 * delay per line or held, and counting the lines written, WARN and ERROR apart.
	 */
	static final class Stdout extends OutputStream {

		private final OutputStream file;

		private final byte[] line = new byte[512];

		private int length;

		final AtomicLong lines = new AtomicLong();

		final AtomicLong severe = new AtomicLong();

		volatile long delayNanos;

		private volatile CountDownLatch latch = new CountDownLatch(0);

		Stdout(Path path) throws IOException {
			this.file = new BufferedOutputStream(Files.newOutputStream(path), 1 << 16);
		}

		void hold() {
			this.latch = new CountDownLatch(1);
		}

		void release() {
			this.latch.countDown();
		}

		@Override
		public void write(int b) throws IOException {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public synchronized void write(byte[] bytes, int offset, int count) throws IOException {
			try {
				this.latch.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			int newLines = 0;
			for (int i = offset; i < offset + count; i++) {
				byte b = bytes[i];
				if (b == '\n') {
					newLines++;
					String text = new String(this.line, 0, this.length, StandardCharsets.UTF_8);
					if (text.contains(" delayed for ") || text.contains(" failed for ")) {
						this.severe.incrementAndGet();
					}
					this.lines.incrementAndGet();
					this.length = 0;
				}
				else if (this.length < this.line.length) {
					this.line[this.length++] = b;
				}
			}
			this.file.write(bytes, offset, count);
			long delay = this.delayNanos * newLines;
			if (delay > 0) {
				LockSupport.parkNanos(delay);
			}
		}

		@Override
		public void flush() {
			// The file is flushed by its buffer: stdout's cost here is the delay alone.
		}

	}

}
