package dev.safedefaults.stuckrequests;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
 */
final class StuckRequestsWatch implements SmartLifecycle, StuckRequestsMeters {

	private static final Log logger = LogFactory.getLog(StuckRequestsWatch.class);

	/** The store's source of the findings. */
	static final String SOURCE = "stuck-requests";

	private final InFlightRequests requests;

	private final @Nullable DestinationRecorder destinations;

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
	StuckRequestsWatch(InFlightRequests requests, @Nullable DestinationRecorder destinations, JdbcPools pools,
			FindingsStore store, Supplier<Duration> threshold) {
		this(requests, destinations, pools, store, threshold, logger::warn);
	}

	StuckRequestsWatch(InFlightRequests requests, @Nullable DestinationRecorder destinations, JdbcPools pools,
			FindingsStore store, Supplier<Duration> threshold, Consumer<String> warnings) {
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

	/**
	 * Requests examined since the start.
	 * @return their number
	 */
	long examined() {
		return this.examined.get();
	}

	boolean recordsDestinations() {
		DestinationRecorder recorder = this.destinations;
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
		List<InFlightRequest> past = new ArrayList<>();
		for (InFlightRequest request : this.requests.current()) {
			if (now - request.startNanos() >= bound) {
				if (request.waitingOn() == null) {
					request.examined(examine(request));
					this.examined.incrementAndGet();
				}
				past.add(request);
			}
		}
		this.stuck = past.size();
		report(WaitGroup.of(past));
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
			this.lastEpisode = WaitGroup.requests(this.episodeMostStuck) + " at most, from " + this.episodeSince
					+ " to " + Instant.now() + ": " + String.join("; ", this.loggedWaits);
			logger.info("safe-defaults: no request runs longer than " + DurationText.of(threshold()) + " any more ("
					+ this.lastEpisode + ")");
			this.loggedWaits.clear();
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
		for (WaitGroup group : groups) {
			findings.add(group.finding(groups, threshold(), poolState));
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
