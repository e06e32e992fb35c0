package dev.safedefaults.stuckrequests;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.safedefaults.DurationText;
import dev.safedefaults.StarterThreads;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.stuckrequests.InFlightRequest.DeadlineOutcome;
import dev.safedefaults.stuckrequests.JdbcPools.PoolState;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * Looks at the requests in flight a few times a second (no more than the threshold
 * allows, at most every second): a request past the threshold is examined once, from its
 * own thread (its stack, state and lock through the JVM's thread bean), and the finding
 * {@code stuck-requests.waiting} is published per kind and target of wait while such
 * requests last, then cleared. Each new wait is logged at once as one {@code WARN} line:
 * the log is the one channel that still works when every request thread is taken. A
 * failure of the watch itself is logged and the next look goes on.
 * <p>
 * With a deadline ({@code safe-defaults.stuck-requests.interrupt-after}), a request past
 * it, on its own thread, is examined again, and interrupted once if it waits on something
 * an interrupt ends ({@link dev.safedefaults.support.LibraryFrames#interruptEnds}); one
 * that waits on something an interrupt cannot end is left alone and said to be. Each is
 * counted by kind, and logged once per episode.
 */
final class StuckRequestsWatch implements SmartLifecycle, StuckRequestsMeters {

	private static final Log logger = LogFactory.getLog(StuckRequestsWatch.class);

	/** The store's source of the findings. */
	static final String SOURCE = "stuck-requests";

	private final InFlightRequests requests;

	private final @Nullable HostsCalled destinations;

	private final WaitClassifier classifier;

	private final JdbcPools pools;

	private final FindingsStore store;

	private final Supplier<Duration> thresholdSource;

	private volatile @Nullable Duration threshold;

	private final Consumer<String> warnings;

	private final AtomicLong examined = new AtomicLong();

	private final Set<String> loggedWaits = new HashSet<>();

	private volatile @Nullable ScheduledExecutorService scanner;

	private volatile int stuck;

	private volatile @Nullable String lastEpisode;

	private volatile @Nullable String lastFailure;

	private @Nullable Instant episodeSince;

	private int episodeMostStuck;

	private List<WaitGroup> published = List.of();

	private final @Nullable Duration interruptAfter;

	private final Map<WaitKind, AtomicLong> interrupts = new EnumMap<>(WaitKind.class);

	/** The requests the deadline freed in this episode, by what they waited on. */
	private final Map<String, Integer> episodeFreed = new LinkedHashMap<>();

	private boolean episodeCannotEndLogged;

	/**
	 * A watch that logs its warnings.
	 * @param requests the requests in flight
	 * @param destinations the context's recorder of the hosts called, or {@code null}
	 * when they are not learnt
	 * @param pools the JDBC pools
	 * @param store the findings store
	 * @param threshold the threshold, asked once, when the watch starts: a default
	 * follows the read timeout decided for Boot's clients, which is decided as their
	 * settings are created
	 */
	StuckRequestsWatch(InFlightRequests requests, @Nullable HostsCalled destinations, JdbcPools pools,
			FindingsStore store, Supplier<Duration> threshold, @Nullable Duration interruptAfter) {
		this(requests, destinations, pools, store, threshold, interruptAfter, logger::warn);
	}

	StuckRequestsWatch(InFlightRequests requests, @Nullable HostsCalled destinations, JdbcPools pools,
			FindingsStore store, Supplier<Duration> threshold, Consumer<String> warnings) {
		this(requests, destinations, pools, store, threshold, null, warnings);
	}

	/**
	 * A watch.
	 * @param requests the requests in flight
	 * @param destinations the context's recorder of the hosts called, or {@code null}
	 * @param pools the JDBC pools
	 * @param store the findings store
	 * @param threshold the threshold, asked once, when the watch starts
	 * @param interruptAfter the deadline, or {@code null} when it is off
	 * @param warnings where its warnings go
	 */
	StuckRequestsWatch(InFlightRequests requests, @Nullable HostsCalled destinations, JdbcPools pools,
			FindingsStore store, Supplier<Duration> threshold, @Nullable Duration interruptAfter,
			Consumer<String> warnings) {
		this.interruptAfter = interruptAfter;
		if (interruptAfter != null) {
			for (WaitKind kind : WaitKind.values()) {
				if (kind != WaitKind.ASYNC_RESULT && kind != WaitKind.RESPONSE_WRITE && kind != WaitKind.REQUEST_READ
						&& kind != WaitKind.LOGGING_QUEUE) {
					this.interrupts.put(kind, new AtomicLong());
				}
			}
		}
		this.requests = requests;
		this.destinations = destinations;
		this.classifier = new WaitClassifier(pools);
		this.pools = pools;
		this.store = store;
		this.thresholdSource = threshold;
		this.warnings = warnings;
	}

	/**
	 * How long a request runs before it is examined, fixed the first time it is asked.
	 * @return the threshold
	 */
	Duration threshold() {
		Duration fixed = this.threshold;
		if (fixed == null) {
			fixed = this.thresholdSource.get();
			this.threshold = fixed;
		}
		return fixed;
	}

	@Override
	public void start() {
		ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(
				(runnable) -> StarterThreads.newThread(runnable, "safe-defaults-stuck-requests"));
		long period = Math.max(100, Math.min(1000, threshold().toMillis() / 4));
		started.scheduleWithFixedDelay(this::lookSafely, period, period, TimeUnit.MILLISECONDS);
		this.scanner = started;
	}

	@Override
	public void stop() {
		ScheduledExecutorService running = this.scanner;
		if (running != null) {
			running.shutdownNow();
		}
		this.scanner = null;
		this.store.clear(SOURCE);
	}

	@Override
	public boolean isRunning() {
		return this.scanner != null;
	}

	@Override
	public int stuck() {
		return this.stuck;
	}

	@Override
	public Map<String, Long> interrupts() {
		Map<String, Long> byKind = new LinkedHashMap<>();
		this.interrupts.forEach((kind, count) -> byKind.put(kind.tag(), count.get()));
		return byKind;
	}

	/**
	 * The deadline.
	 * @return it, or {@code null} when it is off
	 */
	@Nullable Duration interruptAfter() {
		return this.interruptAfter;
	}

	/**
	 * Requests examined since the start.
	 * @return their number
	 */
	long examined() {
		return this.examined.get();
	}

	boolean recordsDestinations() {
		HostsCalled recorder = this.destinations;
		return recorder != null && recorder.isRecording();
	}

	/**
	 * The last requests past the threshold, for the endpoint.
	 * @return what was seen, or {@code null} when nothing was
	 */
	@Nullable String describe() {
		int now = this.stuck;
		String last = this.lastEpisode;
		String current = (now > 0) ? WaitGroup.requests(now) + " past the threshold now"
				: "no request past the threshold now";
		String described = (last != null) ? current + "; last: " + last : current;
		String failure = this.lastFailure;
		return (failure != null) ? described + "; the watch last failed with " + failure : described;
	}

	private void lookSafely() {
		try {
			look();
		}
		catch (RuntimeException ex) {
			this.lastFailure = ex + " at " + Instant.now();
			logger.warn("safe-defaults: the stuck-request watch failed to look at the requests in flight; it looks "
					+ "again at its next period", ex);
		}
	}

	/** One look at the requests in flight; called on the watch's thread only. */
	synchronized void look() {
		long now = System.nanoTime();
		long bound = threshold().toNanos();
		long deadline = (this.interruptAfter != null) ? this.interruptAfter.toNanos() : Long.MAX_VALUE;
		List<InFlightRequest> past = new ArrayList<>();
		for (InFlightRequest request : this.requests.current()) {
			long age = now - request.startNanos();
			if (age >= bound) {
				boolean examinedNow = request.waitingOn() == null;
				if (examinedNow) {
					request.examined(examine(request));
					this.examined.incrementAndGet();
				}
				// Past the deadline and not interrupted: examined once per deadline.
				if (age >= deadline && !request.isAsync() && request.deadline() != DeadlineOutcome.INTERRUPTED
						&& now - request.deadlineChecked() >= deadline) {
					request.deadlineChecked(now);
					pastTheDeadline(request, examinedNow);
				}
				past.add(request);
			}
		}
		this.stuck = past.size();
		report(WaitGroup.of(past));
	}

	/**
	 * A request on its own thread past the deadline: examined again (its wait may have
	 * changed since the threshold), then interrupted once if an interrupt ends that wait,
	 * else left alone and, in a wait the table knows, said to be; examined again a
	 * deadline later (it may have been caught on its way to its wait).
	 */
	private void pastTheDeadline(InFlightRequest request, boolean examinedNow) {
		Wait wait = request.waitingOn();
		if (!examinedNow || wait == null) {
			wait = examine(request);
			request.examined(wait);
		}
		if (!wait.interruptible() && wait.kind() == WaitKind.OTHER) {
			// Between two waits, or computing: nothing to say yet.
			return;
		}
		if (!wait.interruptible()) {
			request.cannotEnd();
			if (!this.episodeCannotEndLogged) {
				this.episodeCannotEndLogged = true;
				this.warnings.accept("safe-defaults: a request past " + StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY
						+ " (" + DurationText.of(deadline()) + ") waits on " + wait.subject()
						+ ", which an interrupt cannot end: it is left alone (" + WaitGroup.cannotEndAdvice(wait)
						+ "); said once per episode");
			}
			return;
		}
		if (request.interrupt()) {
			AtomicLong count = this.interrupts.get(wait.kind());
			if (count != null) {
				count.incrementAndGet();
			}
			if (this.episodeFreed.isEmpty()) {
				this.warnings.accept("safe-defaults: interrupted the thread of a request past "
						+ StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY + " (" + DurationText.of(deadline())
						+ ") waiting on " + wait.subject() + ": its wait ends with the library's own failure; "
						+ "the next interrupts of this episode are counted (safedefaults.stuck-requests.interrupts) "
						+ "and said in the findings, not logged");
			}
			this.episodeFreed.merge(wait.kind().label() + ": " + wait.target(), 1, Integer::sum);
		}
	}

	private Duration deadline() {
		Duration deadline = this.interruptAfter;
		return (deadline != null) ? deadline : threshold();
	}

	/**
	 * What the deadline freed in this episode, in words.
	 * @return for example {@code freed 2 requests waiting on HTTP response: …}, empty
	 * when nothing
	 */
	String freedThisEpisode() {
		if (this.episodeFreed.isEmpty()) {
			return "";
		}
		List<String> freed = new ArrayList<>();
		this.episodeFreed.forEach((wait, count) -> freed.add(WaitGroup.requests(count) + " waiting on " + wait));
		return "freed by interrupting their thread past " + StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY + " ("
				+ DurationText.of(deadline()) + "): " + String.join(", ", freed);
	}

	private Wait examine(InFlightRequest request) {
		Thread running = request.runningOn();
		if (running != null) {
			return this.classifier.classify(running, request.destination());
		}
		return asyncResult(request);
	}

	/**
	 * An asynchronous request with no thread the watch can see: what is known of where
	 * its work stands, at its endpoint (there is no frame of the application to name).
	 */
	static Wait asyncResult(InFlightRequest request) {
		String target = switch (request.callable()) {
			case QUEUED -> "its Callable not started, waiting for a thread of Spring MVC's async executor";
			case RETURNED -> "its Callable returned, the response not complete";
			default -> "work on a thread the watch cannot see (a DeferredResult, a CompletableFuture or other "
					+ "asynchronous value)";
		};
		String endpoint = request.endpoint();
		return new Wait(WaitKind.ASYNC_RESULT, target, endpoint.isEmpty() ? "an unknown endpoint" : endpoint);
	}

	private void report(List<WaitGroup> groups) {
		if (groups.equals(this.published)) {
			return;
		}
		if (groups.isEmpty()) {
			this.store.clear(SOURCE);
			String freed = freedThisEpisode();
			this.lastEpisode = WaitGroup.requests(this.episodeMostStuck) + " at most, from " + this.episodeSince
					+ " to " + Instant.now() + ": " + String.join("; ", this.loggedWaits)
					+ (freed.isEmpty() ? "" : "; " + freed);
			logger.info("safe-defaults: no request runs longer than " + DurationText.of(threshold()) + " any more ("
					+ this.lastEpisode + ")");
			this.loggedWaits.clear();
			this.episodeFreed.clear();
			this.episodeCannotEndLogged = false;
			this.episodeSince = null;
			this.episodeMostStuck = 0;
			this.published = groups;
			return;
		}
		if (this.episodeSince == null) {
			this.episodeSince = Instant.now();
		}
		this.episodeMostStuck = Math.max(this.episodeMostStuck, this.stuck);
		boolean poolWaits = groups.stream().anyMatch((group) -> group.waitingOn().kind() == WaitKind.POOL_CONNECTION);
		PoolState poolState = poolWaits ? this.pools.state() : PoolState.NONE;
		List<Finding> findings = new ArrayList<>();
		String freed = freedThisEpisode();
		for (WaitGroup group : groups) {
			findings.add(group.finding(groups, threshold(), poolState, deadline(), freed));
		}
		List<Finding> kept = this.store.publish(SOURCE, findings);
		this.published = groups;
		for (Finding finding : kept) {
			if (this.loggedWaits.add(finding.subject())) {
				this.warnings.accept("safe-defaults: " + finding.toLogLine());
			}
		}
	}

}
