package dev.safedefaults.stuckrequests.reactive;

import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;

import org.jspecify.annotations.Nullable;

/**
 * A task run on one event loop a few times a second: when it last ran, and on which
 * thread. That is all a healthy loop pays for the watch. The watch's own thread reads
 * both; a loop that has not run it for longer than the bound is blocked.
 */
final class EventLoopHeartbeat implements Runnable {

	private final Executor loop;

	private volatile long lastBeatNanos;

	private volatile @Nullable Thread thread;

	private volatile @Nullable ScheduledFuture<?> scheduled;

	/** The current episode, read and written on the watch's thread only. */
	private @Nullable Blocked blocked;

	EventLoopHeartbeat(Executor loop, long scheduledNanos) {
		this.loop = loop;
		this.lastBeatNanos = scheduledNanos;
	}

	@Override
	public void run() {
		if (this.thread == null) {
			this.thread = Thread.currentThread();
		}
		this.lastBeatNanos = System.nanoTime();
	}

	Executor loop() {
		return this.loop;
	}

	long lastBeatNanos() {
		return this.lastBeatNanos;
	}

	/**
	 * The loop's thread, once the heartbeat ran on it.
	 * @return the thread, or {@code null} before the first beat
	 */
	@Nullable Thread thread() {
		return this.thread;
	}

	void scheduled(ScheduledFuture<?> future) {
		this.scheduled = future;
	}

	void cancel() {
		ScheduledFuture<?> future = this.scheduled;
		if (future != null) {
			future.cancel(false);
		}
	}

	@Nullable Blocked blocked() {
		return this.blocked;
	}

	void blocked(@Nullable Blocked episode) {
		this.blocked = episode;
	}

	/**
	 * One episode of a blocked loop: what blocks it, as examined once when it was found.
	 *
	 * @param subject the finding's subject: the loop's thread and its wait
	 * @param sinceNanos its last beat before the episode
	 * @param since when it was found
	 */
	record Blocked(String subject, long sinceNanos, Instant since) {
	}

}
