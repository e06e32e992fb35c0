package dev.safedefaults.stuckrequests.reactive;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.safedefaults.DurationText;
import dev.safedefaults.StarterThreads;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.support.LibraryFrames;
import dev.safedefaults.stuckrequests.Wait;
import dev.safedefaults.stuckrequests.WaitClassifier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * Watches event loops (Vert.x's blocked-thread checker, for Reactor Netty): a heartbeat
 * task runs on each loop every {@link #heartbeatPeriod}; the watch's own thread looks as
 * often, and a loop that has not run its heartbeat for longer than the bound is examined
 * once (its thread's stack, state and lock, read with the servlet watch's wait table) and
 * is the finding {@code stuck-requests.event-loop-blocked} while it lasts: one
 * {@code WARN} line at once, one {@code INFO} line when the loop runs again. A look that
 * comes late (the whole JVM paused: a collection, a starved machine) names nothing, since
 * every loop was paused with it.
 */
final class EventLoopWatch implements SmartLifecycle, EventLoopMeters {

	private static final Log logger = LogFactory.getLog(EventLoopWatch.class);

	/** The store's source of the findings. */
	static final String SOURCE = "stuck-requests.event-loops";

	private static final int MAX_DEPTH = 256;

	private final Supplier<List<ScheduledExecutorService>> loops;

	private final Duration threshold;

	private final FindingsStore store;

	private final WaitClassifier classifier;

	private final Consumer<String> warnings;

	private final Consumer<String> infos;

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final List<EventLoopHeartbeat> heartbeats = new CopyOnWriteArrayList<>();

	private volatile @Nullable ScheduledExecutorService watcher;

	private volatile int blocked;

	private volatile long episodes;

	private volatile @Nullable String lastEpisode;

	private volatile @Nullable String lastFailure;

	private long lastLookNanos;

	/** The subjects logged for the episodes going on; on the watch's thread only. */
	private final List<String> logged = new ArrayList<>();

	EventLoopWatch(Supplier<List<ScheduledExecutorService>> loops, Duration threshold, FindingsStore store,
			WaitClassifier classifier) {
		this(loops, threshold, store, classifier, logger::warn, logger::info);
	}

	EventLoopWatch(Supplier<List<ScheduledExecutorService>> loops, Duration threshold, FindingsStore store,
			WaitClassifier classifier, Consumer<String> warnings, Consumer<String> infos) {
		this.loops = loops;
		this.threshold = threshold;
		this.store = store;
		this.classifier = classifier;
		this.warnings = warnings;
		this.infos = infos;
	}

	/**
	 * How often the heartbeat runs and the watch looks: a tenth of the bound, from 50 ms
	 * to 200 ms, so that a blocked loop is named well within a second of the bound.
	 * @return the period
	 */
	Duration heartbeatPeriod() {
		return Duration.ofMillis(Math.max(50, Math.min(200, this.threshold.toMillis() / 10)));
	}

	Duration threshold() {
		return this.threshold;
	}

	@Override
	public void start() {
		long period = heartbeatPeriod().toMillis();
		try {
			for (ScheduledExecutorService loop : this.loops.get()) {
				EventLoopHeartbeat heartbeat = new EventLoopHeartbeat(loop, System.nanoTime());
				heartbeat.scheduled(loop.scheduleAtFixedRate(heartbeat, 0, period, TimeUnit.MILLISECONDS));
				this.heartbeats.add(heartbeat);
			}
		}
		catch (RuntimeException ex) {
			this.lastFailure = ex + " at " + Instant.now();
			logger.warn("safe-defaults: the event-loop watch could not reach Reactor Netty's event loops; a blocked "
					+ "loop is not named", ex);
		}
		ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(
				(runnable) -> StarterThreads.newThread(runnable, "safe-defaults-event-loops"));
		this.lastLookNanos = System.nanoTime();
		started.scheduleWithFixedDelay(this::lookSafely, period, period, TimeUnit.MILLISECONDS);
		this.watcher = started;
	}

	@Override
	public void stop() {
		ScheduledExecutorService running = this.watcher;
		if (running != null) {
			running.shutdownNow();
		}
		this.watcher = null;
		this.heartbeats.forEach(EventLoopHeartbeat::cancel);
		this.heartbeats.clear();
		this.store.clear(SOURCE);
	}

	@Override
	public boolean isRunning() {
		return this.watcher != null;
	}

	@Override
	public int blockedEventLoops() {
		return this.blocked;
	}

	/**
	 * The loops with a heartbeat.
	 * @return their number
	 */
	int watched() {
		return this.heartbeats.size();
	}

	/**
	 * What was seen, for the endpoint.
	 * @return the loops blocked now, the last episode, the watch's last failure
	 */
	String describe() {
		int now = this.blocked;
		String described = ((now > 0) ? now + " event loop(s) blocked now" : "no event loop blocked now") + ", "
				+ this.episodes + " blocked since the start";
		String last = this.lastEpisode;
		String failure = this.lastFailure;
		return described + ((last != null) ? "; last: " + last : "")
				+ ((failure != null) ? "; the watch last failed with " + failure : "");
	}

	private void lookSafely() {
		try {
			look();
		}
		catch (RuntimeException ex) {
			this.lastFailure = ex + " at " + Instant.now();
			logger.warn("safe-defaults: the event-loop watch failed to look at the event loops; it looks again at "
					+ "its next period", ex);
		}
	}

	/** One look at every loop's heartbeat; on the watch's thread only. */
	synchronized void look() {
		long now = System.nanoTime();
		long late = now - this.lastLookNanos;
		this.lastLookNanos = now;
		long bound = this.threshold.toNanos();
		if (late > heartbeatPeriod().toNanos() + bound / 2) {
			// The watch itself was held as long: the JVM paused, not one loop.
			return;
		}
		boolean changed = false;
		for (EventLoopHeartbeat heartbeat : this.heartbeats) {
			EventLoopHeartbeat.Blocked episode = heartbeat.blocked();
			long lastBeat = heartbeat.lastBeatNanos();
			if (episode == null && now - lastBeat > bound) {
				Thread thread = heartbeat.thread();
				if (thread != null) {
					String subject = thread.getName() + ": " + examine(thread).subject();
					if (heartbeat.lastBeatNanos() == lastBeat) {
						heartbeat.blocked(new EventLoopHeartbeat.Blocked(subject, lastBeat, Instant.now()));
						changed = true;
					}
				}
			}
			else if (episode != null && lastBeat != episode.sinceNanos()) {
				heartbeat.blocked(null);
				changed = true;
				ended(episode, lastBeat);
			}
		}
		if (changed) {
			publish();
		}
	}

	private void ended(EventLoopHeartbeat.Blocked episode, long resumedNanos) {
		Duration blockedFor = Duration.ofNanos(resumedNanos - episode.sinceNanos()).minus(heartbeatPeriod());
		String summary = episode.subject() + ", blocked about " + DurationText.of(roundedToTenths(blockedFor))
				+ ", named at " + episode.since();
		this.lastEpisode = summary;
		this.infos.accept("safe-defaults: an event loop runs its tasks again: " + summary);
	}

	private static Duration roundedToTenths(Duration duration) {
		return Duration.ofMillis(Math.max(0, Math.round(duration.toMillis() / 100.0) * 100));
	}

	private void publish() {
		List<Finding> findings = new ArrayList<>();
		String bound = DurationText.of(this.threshold);
		for (EventLoopHeartbeat heartbeat : this.heartbeats) {
			EventLoopHeartbeat.Blocked episode = heartbeat.blocked();
			if (episode != null) {
				findings.add(finding(episode.subject(), bound));
			}
		}
		int before = this.blocked;
		this.blocked = findings.size();
		if (findings.size() > before) {
			this.episodes += findings.size() - before;
		}
		if (findings.isEmpty()) {
			this.store.clear(SOURCE);
			return;
		}
		List<Finding> kept = this.store.publish(SOURCE, findings);
		for (Finding finding : kept) {
			if (isNew(finding)) {
				this.warnings.accept("safe-defaults: " + finding.toLogLine());
			}
		}
	}

	/**
	 * Each episode's line once: a subject logged is forgotten once its loop runs again.
	 */
	private boolean isNew(Finding finding) {
		List<String> current = this.heartbeats.stream()
			.map(EventLoopHeartbeat::blocked)
			.filter((episode) -> episode != null)
			.map((episode) -> episode.subject())
			.toList();
		this.logged.retainAll(current);
		if (this.logged.contains(finding.subject())) {
			return false;
		}
		this.logged.add(finding.subject());
		return true;
	}

	static Finding finding(String subject, String bound) {
		int colon = subject.indexOf(": ");
		String thread = subject.substring(0, colon);
		String wait = subject.substring(colon + 2);
		int at = wait.lastIndexOf(" at ");
		String waitsOn = (at > 0) ? wait.substring(0, at) : wait;
		String site = (at > 0) ? wait.substring(at + 4) : "no frame";
		return EventLoopFindings.BLOCKED.raise(subject, thread, bound, waitsOn, site);
	}

	/**
	 * What a loop's thread waits on, read from the frames above the first of the
	 * application's: below it is the loop's own dispatch (Reactor Netty's and Netty's
	 * frames), which would otherwise read as an HTTP client's wait.
	 */
	private Wait examine(Thread thread) {
		@SuppressWarnings("deprecation") // threadId() is JDK 19+; the baseline is 17
		ThreadInfo info = this.threads.getThreadInfo(thread.getId(), MAX_DEPTH);
		if (info == null) {
			return this.classifier.classify(aboveTheLoop(thread.getStackTrace()), thread.getState(), null, null, null);
		}
		return this.classifier.classify(aboveTheLoop(info.getStackTrace()), info.getThreadState(), info.getLockName(),
				info.getLockOwnerName(), null);
	}

	static StackTraceElement[] aboveTheLoop(StackTraceElement[] frames) {
		for (int i = 0; i < frames.length; i++) {
			if (LibraryFrames.isApplications(frames[i])) {
				return Arrays.copyOf(frames, i + 1);
			}
		}
		for (int i = 0; i < frames.length; i++) {
			String type = frames[i].getClassName();
			if (type.startsWith("io.netty.") || type.startsWith("reactor.netty.")) {
				return Arrays.copyOf(frames, i);
			}
		}
		return frames;
	}

}
