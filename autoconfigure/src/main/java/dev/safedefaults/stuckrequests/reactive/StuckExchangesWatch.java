package dev.safedefaults.stuckrequests.reactive;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.safedefaults.DurationText;
import dev.safedefaults.StarterThreads;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.stuckrequests.StuckRequestsMeters;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

/**
 * Looks at the WebFlux exchanges in flight once a second (a quarter of the threshold when
 * that is shorter): those running longer than
 * {@code safe-defaults.stuck-requests.threshold} are the finding
 * {@code stuck-requests.waiting}, grouped by what they wait on (the outbound calls joined
 * to them, by host and port, or that nothing could be joined) and named with their
 * endpoints and ages; one {@code WARN} line per new wait, one {@code INFO} line when none
 * is left.
 */
final class StuckExchangesWatch implements SmartLifecycle, StuckRequestsMeters {

	private static final Log logger = LogFactory.getLog(StuckExchangesWatch.class);

	/** The store's source of the findings. */
	static final String SOURCE = "stuck-requests.exchanges";

	/** The most groups reported. */
	private static final int TOP_WAITS = 5;

	private static final String NOT_JOINED = "no outbound call the watch can join";

	private final InFlightExchanges exchanges;

	private final FindingsStore store;

	private final Supplier<Duration> thresholdSource;

	private final Consumer<String> warnings;

	private volatile @Nullable Duration threshold;

	private volatile @Nullable ScheduledExecutorService scanner;

	private volatile int stuck;

	private volatile @Nullable String lastEpisode;

	private final Set<String> logged = new HashSet<>();

	private @Nullable Instant episodeSince;

	private int episodeMostStuck;

	private Set<String> published = Set.of();

	StuckExchangesWatch(InFlightExchanges exchanges, FindingsStore store, Supplier<Duration> threshold) {
		this(exchanges, store, threshold, logger::warn);
	}

	StuckExchangesWatch(InFlightExchanges exchanges, FindingsStore store, Supplier<Duration> threshold,
			Consumer<String> warnings) {
		this.exchanges = exchanges;
		this.store = store;
		this.thresholdSource = threshold;
		this.warnings = warnings;
	}

	/**
	 * How long an exchange runs before it is named, fixed the first time it is asked.
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
				(runnable) -> StarterThreads.newThread(runnable, "safe-defaults-stuck-exchanges"));
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
	 * What was seen, for the endpoint.
	 * @return the exchanges past the threshold now and the last episode
	 */
	String describe() {
		int now = this.stuck;
		String current = (now > 0) ? exchanges(now) + " past the threshold now" : "no exchange past the threshold now";
		String last = this.lastEpisode;
		return (last != null) ? current + "; last: " + last : current;
	}

	private void lookSafely() {
		try {
			look();
		}
		catch (RuntimeException ex) {
			logger.warn("safe-defaults: the stuck-exchange watch failed to look at the exchanges in flight; it looks "
					+ "again at its next period", ex);
		}
	}

	/** One look at the exchanges in flight; on the watch's thread only. */
	synchronized void look() {
		long now = System.nanoTime();
		long bound = threshold().toNanos();
		Map<List<String>, List<InFlightExchange>> byWait = new LinkedHashMap<>();
		int past = 0;
		for (InFlightExchange exchange : this.exchanges.current()) {
			if (now - exchange.startNanos() >= bound) {
				past++;
				byWait.computeIfAbsent(List.of(waitingOn(exchange), exchange.endpoint()), (key) -> new ArrayList<>())
					.add(exchange);
			}
		}
		this.stuck = past;
		List<Finding> findings = new ArrayList<>();
		byWait.entrySet()
			.stream()
			.sorted((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size()))
			.limit(TOP_WAITS)
			.forEach((entry) -> findings
				.add(finding(entry.getKey().get(0), entry.getKey().get(1), entry.getValue(), now)));
		report(findings, past);
	}

	/**
	 * The outbound calls waiting (host:port and client), or that none could be joined.
	 */
	private static String waitingOn(InFlightExchange exchange) {
		Set<String> targets = new TreeSet<>();
		for (InFlightExchange.OutboundCall call : exchange.waitingCalls()) {
			targets.add(call.hostAndPort() + " (" + call.client() + ")");
		}
		return targets.isEmpty() ? NOT_JOINED : String.join(", ", targets);
	}

	private Finding finding(String waitingOn, String at, List<InFlightExchange> waiting, long now) {
		long oldest = waiting.stream().mapToLong(InFlightExchange::startNanos).min().orElse(now);
		String details = at + " (the oldest running for "
				+ DurationText.of(Duration.ofSeconds((now - oldest) / 1_000_000_000L)) + startedCalls(waiting) + ")";
		String verb = (waiting.size() == 1) ? "waits" : "wait";
		String count = exchanges(waiting.size());
		String threshold = DurationText.of(threshold());
		if (NOT_JOINED.equals(waitingOn)) {
			return StuckExchangeFindings.NOT_JOINED.raise("exchange: " + NOT_JOINED + " at " + at, count, threshold,
					NOT_JOINED, details, verb);
		}
		return StuckExchangeFindings.HTTP_RESPONSE.raise("HTTP response: " + waitingOn + " at " + at, count, threshold,
				waitingOn, details, verb);
	}

	private static String startedCalls(List<InFlightExchange> waiting) {
		Instant first = null;
		for (InFlightExchange exchange : waiting) {
			for (InFlightExchange.OutboundCall call : exchange.waitingCalls()) {
				if (first == null || call.started().isBefore(first)) {
					first = call.started();
				}
			}
		}
		return (first != null) ? "; the oldest call started at " + first : "";
	}

	private void report(List<Finding> findings, int past) {
		Set<String> subjects = new HashSet<>();
		findings.forEach((finding) -> subjects.add(finding.subject()));
		if (findings.isEmpty()) {
			if (!this.published.isEmpty()) {
				this.store.clear(SOURCE);
				this.lastEpisode = exchanges(this.episodeMostStuck) + " at most, from " + this.episodeSince + " to "
						+ Instant.now() + ": " + String.join("; ", this.logged);
				logger.info("safe-defaults: no exchange runs longer than " + DurationText.of(threshold())
						+ " any more (" + this.lastEpisode + ")");
				this.logged.clear();
				this.episodeSince = null;
				this.episodeMostStuck = 0;
				this.published = Set.of();
			}
			return;
		}
		if (this.episodeSince == null) {
			this.episodeSince = Instant.now();
		}
		this.episodeMostStuck = Math.max(this.episodeMostStuck, past);
		List<Finding> kept = this.store.publish(SOURCE, findings);
		this.published = subjects;
		for (Finding finding : kept) {
			if (this.logged.add(finding.subject())) {
				this.warnings.accept("safe-defaults: " + finding.toLogLine());
			}
		}
	}

	private static String exchanges(int count) {
		return count + ((count == 1) ? " exchange" : " exchanges");
	}

}
