package dev.safedefaults.logging;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import dev.safedefaults.DurationText;
import org.jspecify.annotations.Nullable;

/**
 * One log output (Log4j's ring buffer, or one Logback appender behind its queue) as
 * {@link LogStalls} sees it: whether it is stalled, and what it could not take since it
 * was last summarised. The route that owns the queue asks {@link #waitNanos()} before
 * waiting, reports a wait that ran out ({@link #waitedTheWholeBound()}) and each event it
 * dropped ({@link #dropped}), and calls {@link #moved()} once the queue has drained, to
 * write the line it returns.
 */
public final class LogOutputStall {

	private final LogStalls stalls;

	private final String name;

	/** The first pause between two looks at the queue; doubled up to the longest. */
	private static final long FIRST_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

	private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

	/** One waiting thread at a time looks at the queue; the others park behind it. */
	private final ReentrantLock admission = new ReentrantLock();

	private volatile @Nullable Instant stalledSince;

	/** Whether events were dropped since the last summary: read on every event. */
	private volatile boolean lost;

	// Guarded by this: what has been dropped since the last summary.
	private long warn;

	private long error;

	private @Nullable DroppedLogEvent first;

	private @Nullable DroppedLogEvent last;

	LogOutputStall(LogStalls stalls, String name) {
		this.stalls = stalls;
		this.name = name;
	}

	/**
	 * The output as operators know it.
	 * @return its name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Whether a WARN or ERROR waited the whole bound and the queue has not drained since.
	 * @return true while stalled
	 */
	public boolean isStalled() {
		return this.stalledSince != null;
	}

	/**
	 * Since when the output is stalled.
	 * @return when the first event waited in vain, or {@code null}
	 */
	public @Nullable Instant stalledSince() {
		return this.stalledSince;
	}

	/**
	 * How long an event of the calling thread may wait for room in this output's full
	 * queue.
	 * @return nanoseconds: 0 on the starter's threads and while stalled, else the bound
	 */
	public long waitNanos() {
		return this.stalls.waitNanos(this);
	}

	/**
	 * Waits, parked, for room in a queue that signals no one when it frees a slot
	 * (Log4j's ring buffer, Logback's {@code AsyncAppender}): one waiting thread at a
	 * time polls it, from every 50 µs up to every 2 ms, the others park on a lock behind
	 * it, so that nothing spins however many wait. An interrupt does not end the wait (a
	 * log call is no place to answer one): it is kept for the caller.
	 * @param waitNanos the longest wait, from {@link #waitNanos()}
	 * @param hasRoom whether the queue has a free slot
	 * @return true when it had room within the wait; false when the wait ran out or the
	 * output was found stalled meanwhile
	 */
	public boolean awaitRoom(long waitNanos, BooleanSupplier hasRoom) {
		long deadline = System.nanoTime() + waitNanos;
		boolean interrupted = Thread.interrupted();
		try {
			while (true) {
				try {
					if (!this.admission.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
						return false;
					}
					break;
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			try {
				long pause = FIRST_PAUSE_NANOS;
				while (!hasRoom.getAsBoolean()) {
					long left = deadline - System.nanoTime();
					if (left <= 0 || isStalled()) {
						return false;
					}
					LockSupport.parkNanos(this, Math.min(pause, left));
					interrupted |= Thread.interrupted();
					pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
				}
				return true;
			}
			finally {
				this.admission.unlock();
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * An event waited the whole bound: the output is stalled from now until
	 * {@link #moved()}.
	 */
	public void waitedTheWholeBound() {
		boolean changed;
		synchronized (this) {
			changed = this.stalledSince == null;
			if (changed) {
				this.stalledSince = Instant.now();
			}
		}
		if (changed) {
			this.stalls.changed();
		}
	}

	/**
	 * A WARN or ERROR event this output could not take: counted, kept to show, and
	 * summarised when the output moves again.
	 * @param event the event
	 */
	public void dropped(DroppedLogEvent event) {
		this.stalls.count(event);
		synchronized (this) {
			if (event.level().equals("WARN")) {
				this.warn++;
			}
			else {
				this.error++;
			}
			if (this.first == null) {
				this.first = event;
			}
			this.last = event;
			this.lost = true;
		}
	}

	/**
	 * Whether events were dropped since the last summary.
	 * @return true when {@link #moved()} has a line to write
	 */
	public boolean hasLost() {
		return this.lost;
	}

	/**
	 * The output's queue has drained: it is no longer stalled, and what it lost is
	 * summarised.
	 * @return the line to write first, or {@code null} when nothing was lost
	 */
	public @Nullable String moved() {
		String line;
		Instant since;
		synchronized (this) {
			since = this.stalledSince;
			this.stalledSince = null;
			DroppedLogEvent firstLost = this.first;
			DroppedLogEvent lastLost = this.last;
			line = (firstLost != null && lastLost != null) ? summary(since, firstLost, lastLost) : null;
			this.warn = 0;
			this.error = 0;
			this.first = null;
			this.last = null;
			this.lost = false;
		}
		if (since != null) {
			this.stalls.changed();
		}
		return line;
	}

	private String summary(@Nullable Instant since, DroppedLogEvent first, DroppedLogEvent last) {
		Instant from = (since != null && since.isBefore(first.time())) ? since : first.time();
		Instant to = Instant.now();
		return "safe-defaults: the log output " + this.name + " could not take " + this.warn + " WARN and " + this.error
				+ " ERROR events from " + from + " to " + to + " (" + DurationText.of(Duration.between(from, to))
				+ "); they were dropped after waiting at most " + DurationText.of(this.stalls.bound()) + ". First: "
				+ first.line() + " | last: " + last.line();
	}

	@Override
	public String toString() {
		return this.name;
	}

}
