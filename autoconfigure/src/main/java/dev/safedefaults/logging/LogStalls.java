package dev.safedefaults.logging;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

import dev.safedefaults.DurationText;
import dev.safedefaults.StarterThreads;

/**
 * The promise that no log call holds a thread longer than a bound (issue 49), for one
 * application context, on either logging route. When an output's queue is full, a WARN or
 * ERROR waits at most {@code safe-defaults.logging.queue-full-timeout} for room. The
 * first one that waits the whole bound finds the output stalled ({@link LogOutputStall}):
 * until its queue has drained again, later WARN and ERROR events do not wait at all (no
 * thread pays the bound twice for one stall); they are dropped, counted by level and the
 * latest {@value #RECENT} kept to show, and when the output moves again one line says how
 * many were lost, from when to when, the first and the last. The starter's own threads
 * ({@link StarterThreads}) never wait: on a full queue their events are dropped and
 * counted at once, so that the stuck-request watch, the checks and the stop keep working
 * while the output is stalled.
 * <p>
 * Nothing here is on the path of an event that finds room in its queue.
 */
public final class LogStalls {

	/** How many dropped events are kept to show. */
	public static final int RECENT = 20;

	private final long boundNanos;

	private final Duration bound;

	private final LongAdder warnDropped = new LongAdder();

	private final LongAdder errorDropped = new LongAdder();

	private final Deque<DroppedLogEvent> recent = new ArrayDeque<>(RECENT);

	private final List<LogOutputStall> outputs = new CopyOnWriteArrayList<>();

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	/**
	 * Stalls for one application context.
	 * @param bound how long a WARN or ERROR waits for room in a full queue
	 */
	public LogStalls(Duration bound) {
		this.bound = bound;
		this.boundNanos = bound.toNanos();
	}

	/**
	 * The state of one output, for the route that writes to it.
	 * @param name the output as operators know it (the ring buffer, an appender's name)
	 * @return its state, not stalled
	 */
	public LogOutputStall output(String name) {
		LogOutputStall output = new LogOutputStall(this, name);
		this.outputs.add(output);
		return output;
	}

	/**
	 * Forgets an output that is no longer written to (an appender replaced by a
	 * reconfiguration).
	 * @param output the output
	 */
	public void remove(LogOutputStall output) {
		if (this.outputs.remove(output) && output.isStalled()) {
			changed();
		}
	}

	/**
	 * Calls the listener whenever an output stalls or moves again (the findings of the
	 * feature, which read {@link #stalled()}).
	 * @param listener called on the thread that saw the change
	 */
	public void onChange(Runnable listener) {
		this.listeners.add(listener);
	}

	/**
	 * How long a WARN or ERROR waits for room in a full queue.
	 * @return the bound
	 */
	public Duration bound() {
		return this.bound;
	}

	/**
	 * How long an event of the calling thread may wait for room in the output's full
	 * queue: nothing on the starter's own threads or while the output is stalled, else
	 * the bound.
	 * @param output the output
	 * @return nanoseconds, 0 for not at all
	 */
	long waitNanos(LogOutputStall output) {
		return (StarterThreads.isCurrentThread() || output.isStalled()) ? 0 : this.boundNanos;
	}

	void count(DroppedLogEvent event) {
		(event.level().equals("WARN") ? this.warnDropped : this.errorDropped).increment();
		synchronized (this.recent) {
			if (this.recent.size() == RECENT) {
				this.recent.removeFirst();
			}
			this.recent.addLast(event);
		}
	}

	void changed() {
		for (Runnable listener : this.listeners) {
			listener.run();
		}
	}

	/**
	 * The outputs stalled now.
	 * @return them, in the order they were made known
	 */
	public List<LogOutputStall> stalled() {
		return this.outputs.stream().filter(LogOutputStall::isStalled).toList();
	}

	/**
	 * WARN events dropped because their output was stalled or their thread the starter's.
	 * @return the count since the context started
	 */
	public long warnDropped() {
		return this.warnDropped.sum();
	}

	/**
	 * ERROR (and FATAL) events dropped because their output was stalled or their thread
	 * the starter's.
	 * @return the count since the context started
	 */
	public long errorDropped() {
		return this.errorDropped.sum();
	}

	/**
	 * What the feature's status says of the bound: the promise, what was dropped, the
	 * outputs stalled now and the latest dropped events, latest first.
	 * @return the lines
	 */
	public List<String> statusLines() {
		List<String> lines = new ArrayList<>();
		lines.add("WARN and ERROR wait at most " + DurationText.of(this.bound) + " for room in a full queue, then are "
				+ "dropped and counted until the stalled output drains; " + warnDropped() + " WARN and "
				+ errorDropped() + " ERROR dropped so far");
		for (LogOutputStall output : stalled()) {
			lines.add("stalled: " + output.name() + " since " + output.stalledSince());
		}
		List<DroppedLogEvent> latest = recent();
		for (int i = latest.size() - 1; i >= 0; i--) {
			lines.add("dropped: " + latest.get(i).line());
		}
		return lines;
	}

	/**
	 * The latest dropped WARN and ERROR events, the latest last.
	 * @return at most {@value #RECENT} of them
	 */
	public List<DroppedLogEvent> recent() {
		synchronized (this.recent) {
			return new ArrayList<>(this.recent);
		}
	}

}
