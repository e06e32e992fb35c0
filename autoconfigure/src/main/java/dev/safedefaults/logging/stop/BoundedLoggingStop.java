package dev.safedefaults.logging.stop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

import dev.safedefaults.StarterThreads;

/**
 * One application's logging stop, bounded from the moment the JVM starts to shut down
 * (the signal): the whole stop ends within
 * {@code spring.lifecycle.timeout-per-shutdown-phase} +
 * {@code safe-defaults.logging.shutdown-timeout} + 2 s, with the count of unwritten
 * events written before that.
 * <ul>
 * <li>As Spring Boot's shutdown handler (after the contexts have closed) it drains the
 * ring buffer for at most the shutdown timeout, and never past the stop's deadline:
 * signal + phase + shutdown timeout, less the half second the line may take
 * ({@link #LAST_LINE_GRACE}), so that the line is written by signal + phase + shutdown
 * timeout whatever the outputs do, and the 2 s of the bound are left for the exit and a
 * loaded machine's delays.</li>
 * <li>From the signal, a daemon thread watches the deadline. Request threads waiting to
 * queue a WARN or ERROR behind a stalled stdout keep Tomcat's connector stop and servlet
 * unload waiting (seconds each, after the graceful phase), so the contexts may still be
 * closing when the deadline comes: the watchdog then counts what is queued, writes the
 * line (at most half a second) and halts the JVM. When the handler is draining at the
 * deadline, it gets until {@link #HALT_AFTER} past the deadline to finish (its line
 * included) before the halt.</li>
 * </ul>
 * The halt's status is 143 (128 + SIGTERM), what a JVM stopped by SIGTERM returns.
 */
public final class BoundedLoggingStop implements Runnable {

	/**
	 * How long the last line may take to reach each of its outputs before it goes to a
	 * file: short, since it comes at the stop's deadline and the bound leaves 2 s for it
	 * and the exit.
	 */
	public static final Duration LAST_LINE_GRACE = Duration.ofMillis(500);

	/**
	 * How long past the deadline a handler still draining may take before the JVM is
	 * halted.
	 */
	static final Duration HALT_AFTER = Duration.ofSeconds(1);

	/** The status of a halted stop. */
	static final int HALT_STATUS = 143;

	/**
	 * How long past its deadline a logging context's own stop may take (Log4j's stop of
	 * an async context sleeps while events are queued, on top of its timeout).
	 */
	private static final long CONTEXT_STOP_GRACE_MILLIS = 250;

	private static final int WAITING = 0;

	private static final int DRAINING = 1;

	private static final int TAKEN_OVER = 2;

	private final Supplier<Drain> drain;

	private final Duration bound;

	private final IntConsumer halt;

	private final AtomicInteger state = new AtomicInteger(WAITING);

	private final CountDownLatch finished = new CountDownLatch(1);

	private volatile long deadline;

	private volatile boolean signalled;

	/**
	 * A stop.
	 * @param drain the logging drain, made when it is needed (the ring buffer is looked
	 * up then)
	 * @param bound the phase plus the shutdown timeout: from the signal to the deadline
	 * @param halt halts the JVM with a status
	 */
	BoundedLoggingStop(Supplier<Drain> drain, Duration bound, IntConsumer halt) {
		this.drain = drain;
		this.bound = bound;
		this.halt = halt;
	}

	/**
	 * Makes a logging system's bounded stop the one that runs when the JVM shuts down, in
	 * place of the previous run's (a restarted application stops with its own settings).
	 * @param drain the logging system's drain, made when the stop starts
	 * @param bound the phase plus the shutdown timeout: from the signal to the deadline
	 */
	public static void register(Supplier<Drain> drain, Duration bound) {
		StopRegistration.register(new BoundedLoggingStop(drain, bound, Runtime.getRuntime()::halt));
	}

	/**
	 * The time from the signal to the deadline.
	 * @return phase + shutdown timeout
	 */
	Duration bound() {
		return this.bound;
	}

	/**
	 * Spring Boot's shutdown handler: drains, unless the watchdog has taken over.
	 */
	@Override
	public void run() {
		if (!this.state.compareAndSet(WAITING, DRAINING)) {
			return;
		}
		try {
			this.drain.get().drain(this.signalled ? this.deadline : System.nanoTime() + this.bound.toNanos());
		}
		finally {
			this.finished.countDown();
		}
	}

	/**
	 * The JVM has started to shut down: the stop's clock starts.
	 * @param nanoTime when, in {@link System#nanoTime()}
	 * @return the watchdog thread, started
	 */
	Thread signalled(long nanoTime) {
		this.deadline = nanoTime + Math.max(0, this.bound.toNanos() - LAST_LINE_GRACE.toNanos());
		this.signalled = true;
		// A daemon: a stop that ends in time ends the JVM without waiting for it.
		Thread watchdog = StarterThreads.newThread(this::watch, "safe-defaults-stop-watchdog");
		watchdog.start();
		return watchdog;
	}

	/**
	 * Stops a logging context on a daemon thread of its own and waits for it until the
	 * deadline, and a quarter of a second more: a context stopped after the drain, whose
	 * outputs may block, never holds the stop past its bound.
	 * @param stop stops the context, given the milliseconds left until the deadline (at
	 * least 1)
	 * @param deadline the drain's deadline, in {@link System#nanoTime()}
	 * @return true when the context's stop ended in time
	 */
	public static boolean stopContext(LongConsumer stop, long deadline) {
		long remainingMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
		Thread thread = StarterThreads.newThread(() -> stop.accept(remainingMillis), "safe-defaults-logging-stop");
		thread.start();
		try {
			thread.join(remainingMillis + CONTEXT_STOP_GRACE_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return !thread.isAlive();
	}

	private void watch() {
		awaitUntil(this.finished, this.deadline);
		if (this.state.compareAndSet(WAITING, TAKEN_OVER)) {
			// The contexts are still closing: count and write now, then end the stop.
			this.drain.get().reportBacklog();
			this.halt.accept(HALT_STATUS);
		}
		else if (!awaitUntil(this.finished, this.deadline + HALT_AFTER.toNanos())) {
			this.halt.accept(HALT_STATUS);
		}
	}

	private static boolean awaitUntil(CountDownLatch latch, long deadline) {
		while (true) {
			try {
				return latch.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				// The stop goes on: keep waiting for the deadline.
			}
		}
	}

	/**
	 * What drains the log.
	 */
	public interface Drain {

		/**
		 * Waits for the queued events to be written, for at most the shutdown timeout and
		 * not past the deadline; writes the count of what was not.
		 * @param deadline the stop's deadline, in {@link System#nanoTime()}
		 */
		void drain(long deadline);

		/**
		 * Counts what is queued now and writes the count, if any.
		 */
		void reportBacklog();

	}

}
