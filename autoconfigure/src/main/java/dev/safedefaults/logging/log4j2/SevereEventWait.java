package dev.safedefaults.logging.log4j2;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.safedefaults.StarterThreads;
import dev.safedefaults.logging.DroppedLogEvent;
import dev.safedefaults.logging.LogOutputStall;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.async.EventRoute;

/**
 * How a WARN or ERROR event that finds the ring buffer full waits (issue 49): for room,
 * at most the bound ({@link LogOutputStall#waitNanos()}), parked, never spinning. One
 * waiting thread at a time looks at the buffer, polling its free slots (Log4j's
 * queue-full policy is asked only for a route, and the Disruptor signals no one when a
 * slot frees), the others park on the admission lock behind it; the one that sees a free
 * slot goes on to Log4j's own enqueue. A wait that runs out makes the ring buffer
 * stalled: that event and every later WARN and ERROR is dropped without waiting and
 * counted, with where it was logged (the policy is handed only the level, not the event),
 * until the buffer has drained to half its size; then one line says what was lost.
 * <p>
 * What this cannot bound: a thread that saw a free slot and lost it to another thread
 * before Log4j claimed it waits in the Disruptor for the next one, as every WARN did
 * before; when the output stops at that very moment it waits until it moves.
 */
final class SevereEventWait {

	/** How often the drain watch looks at the buffer while events are lost. */
	private static final long DRAIN_WATCH_MILLIS = 200;

	/**
	 * Packages of the frames that log, not the call site: Log4j and the APIs in front of
	 * it.
	 */
	private static final String[] LOGGING_PACKAGES = { "org.apache.logging.", "org.slf4j.",
			"org.apache.commons.logging.", "com.lmax.disruptor." };

	private final RingBufferBacklog ring;

	private final LogOutputStall stall;

	private final Consumer<String> summary;

	private final AtomicBoolean watching = new AtomicBoolean();

	private final ExecutorService drainWatch = Executors
		.newSingleThreadExecutor((task) -> StarterThreads.newThread(task, "safe-defaults-log-drain-watch"));

	/**
	 * The wait for one context's ring buffer.
	 * @param ring the ring buffer
	 * @param stall its state
	 * @param summary writes the line that says what was lost (on the drain watch's
	 * thread, once the buffer has room)
	 */
	SevereEventWait(RingBufferBacklog ring, LogOutputStall stall, Consumer<String> summary) {
		this.ring = ring;
		this.stall = stall;
		this.summary = summary;
	}

	/**
	 * The route of an event above the discard threshold (WARN and ERROR, and INFO when
	 * the threshold is lower) that found the buffer full. A WARN or ERROR dropped is
	 * counted here; a lower level is the caller's to count with the discards.
	 * @param level its level
	 * @return {@link EventRoute#ENQUEUE} when room appeared within the bound,
	 * {@link EventRoute#DISCARD} when the event was dropped and counted
	 */
	EventRoute route(Level level) {
		long wait = this.stall.waitNanos();
		if (wait > 0) {
			if (this.stall.awaitRoom(wait, this.ring::hasRoom)) {
				return EventRoute.ENQUEUE;
			}
			this.stall.waitedTheWholeBound();
		}
		if (level.isMoreSpecificThan(Level.WARN)) {
			this.stall
				.dropped(DroppedLogEvent.now(level.isMoreSpecificThan(Level.ERROR), callSite(), null, null, null));
		}
		watchTheDrain();
		return EventRoute.DISCARD;
	}

	private void watchTheDrain() {
		if (this.watching.compareAndSet(false, true)) {
			try {
				this.drainWatch.execute(this::watch);
			}
			catch (RuntimeException ex) {
				// Shut down: the context is closing, and its stop counts what is left.
				this.watching.set(false);
			}
		}
	}

	private void watch() {
		try {
			while (this.stall.hasLost() || this.stall.isStalled()) {
				if (this.ring.isHalfEmpty()) {
					String line = this.stall.moved();
					if (line != null) {
						this.summary.accept(line);
					}
				}
				else {
					Thread.sleep(DRAIN_WATCH_MILLIS);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.watching.set(false);
		}
		if (this.stall.hasLost()) {
			// Lost between the last look and the flag's reset.
			watchTheDrain();
		}
	}

	/** Stops the drain watch (the context closes). */
	void close() {
		this.drainWatch.shutdownNow();
	}

	LogOutputStall stall() {
		return this.stall;
	}

	private static String callSite() {
		Optional<StackWalker.StackFrame> frame = StackWalker.getInstance()
			.walk((frames) -> frames.limit(64).filter((f) -> !isLogging(f.getClassName())).findFirst());
		return frame.map((f) -> f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber())
			.orElse("(call site not found)");
	}

	private static boolean isLogging(String className) {
		if (className.equals(SevereEventWait.class.getName())
				|| className.equals(CountingQueueFullPolicy.class.getName())) {
			return true;
		}
		for (String prefix : LOGGING_PACKAGES) {
			if (className.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
