package dev.safedefaults.runtime;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Watches the running JVM for exception storms and for stack traces printed to
 * {@code System.err}, and reports each as a finding while it lasts (incidents 1, 3 and 8:
 * exceptions nobody logged, found only once someone attached a profiler).
 * <ul>
 * <li>The JVM's count of created throwables is read from the flight recorder once per
 * sampling period; the rate, and the rate per completed request when a
 * {@link RequestCounter} is there, are compared with the thresholds.</li>
 * <li>A rate above its threshold for the sustained duration is a storm:
 * {@value #EXCEPTION_STORM} appears, and a diagnostic window records where the throws come
 * from, at most once per window interval. When the rate has stayed below for the
 * sustained duration the finding is cleared; the last storm's report stays in the feature
 * status.</li>
 * <li>The same for stack traces printed to {@code System.err}:
 * {@value #STDERR_STACK_TRACES}.</li>
 * </ul>
 * A storm's start and end are each logged once at WARN, at most once per window interval.
 * Runtime findings are published straight into the {@link FindingsStore}: the startup
 * checks' {@code fail-on} never applies to them. Without a usable flight recorder there
 * is one INFO finding, {@value #JFR_UNAVAILABLE}, and nothing else.
 */
public final class RuntimeStormDetector implements SmartLifecycle {

	/** Id of the exception-storm finding. */
	public static final String EXCEPTION_STORM = "runtime.exception-storm";

	/** Id of the finding for stack traces printed to {@code System.err}. */
	public static final String STDERR_STACK_TRACES = "runtime.stderr-stack-traces";

	/** Id of the finding raised when the JVM has no usable flight recorder. */
	public static final String JFR_UNAVAILABLE = "runtime.jfr-unavailable";

	/** The longest diagnostic window: it slows throwing code while it is open. */
	static final Duration MAX_WINDOW = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(RuntimeStormDetector.class);

	private final FindingsStore store;

	private final RuntimeStormProperties properties;

	private final ThrowableSource source;

	private final Supplier<RequestCounter> requestCounters;

	private final Consumer<String> warnings;

	private final StormState exceptions;

	private final StormState stderrTraces;

	private final Deque<Sample> history = new ArrayDeque<>();

	private volatile String unavailableReason;

	private volatile boolean running;

	private volatile StderrStackTraceCounter stderr;

	private volatile RequestCounter requestCounter;

	private volatile long readings;

	// The listener's state: the source calls it on one thread at a time.
	private Instant lastWindowAt;

	private boolean windowPending;

	private volatile ThrowSites lastSites;

	private StderrStackTraceCounter.Counts stderrBaseline = StderrStackTraceCounter.Counts.NONE;

	/**
	 * Creates a detector that logs through commons-logging.
	 * @param store where findings go
	 * @param properties the validated settings
	 * @param source the flight recorder, {@code null} when it cannot be used
	 * @param unavailableReason why there is no source, {@code null} when there is one
	 * @param requestCounters the request counter, looked up when needed
	 */
	RuntimeStormDetector(FindingsStore store, RuntimeStormProperties properties, ThrowableSource source,
			String unavailableReason, Supplier<RequestCounter> requestCounters) {
		this(store, properties, source, unavailableReason, requestCounters, logger::warn);
	}

	RuntimeStormDetector(FindingsStore store, RuntimeStormProperties properties, ThrowableSource source,
			String unavailableReason, Supplier<RequestCounter> requestCounters, Consumer<String> warnings) {
		this.store = store;
		this.properties = properties;
		this.source = source;
		this.unavailableReason = (source != null) ? null : unavailableReason;
		this.requestCounters = requestCounters;
		this.warnings = warnings;
		this.exceptions = new StormState(EXCEPTION_STORM, "exception storm", properties.getSustainedFor());
		this.stderrTraces = new StormState(STDERR_STACK_TRACES, "System.err stack-trace storm",
				properties.getSustainedFor());
	}

	@Override
	public void start() {
		this.running = true;
		if (this.source == null) {
			publishUnavailable(this.unavailableReason);
			return;
		}
		try {
			this.source.start(this.properties.getSamplingPeriod(), new SourceListener());
		}
		catch (Exception | LinkageError ex) {
			publishUnavailable("the flight recorder could not be started: " + ex);
			return;
		}
		if (this.properties.getStderrStackTraces().isEnabled()) {
			this.stderr = StderrStackTraceCounter.install();
		}
	}

	@Override
	public void stop() {
		this.running = false;
		if (this.source != null) {
			this.source.close();
		}
		restoreStderr();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * The JVM's cumulative count of created throwables, as last read from the flight
	 * recorder (the {@code safedefaults.runtime.throwables} counter).
	 * @return the count, 0 before the first reading or without a flight recorder
	 */
	public long throwables() {
		return (this.source != null) ? this.source.throwables() : 0;
	}

	/**
	 * Whether the flight recorder can be used: without it the detector only reports
	 * {@value #JFR_UNAVAILABLE}.
	 * @return {@code true} when it can be used
	 */
	public boolean isFlightRecorderAvailable() {
		return this.unavailableReason == null;
	}

	/**
	 * How many readings the detector has taken.
	 * @return the count
	 */
	long readings() {
		return this.readings;
	}

	/**
	 * Why the flight recorder cannot be used.
	 * @return the reason, {@code null} when it can
	 */
	String unavailableReason() {
		return this.unavailableReason;
	}

	/**
	 * What the detector watches and the last storm of each kind, for the feature status.
	 * @return one line per item
	 */
	List<String> describe() {
		List<String> lines = new ArrayList<>();
		RuntimeStormProperties.ExceptionStorm storm = this.properties.getExceptionStorm();
		lines.add("exception storms: " + this.source.describe() + "; a storm is above " + threshold(storm.getPerSecond())
				+ " throwables/s or " + threshold(storm.getPerRequest()) + " per request for "
				+ duration(this.properties.getSustainedFor()) + "; " + number(throwables())
				+ " throwables created so far");
		lines.add(this.exceptions.lastReport());
		StderrStackTraceCounter counter = this.stderr;
		if (counter != null) {
			lines.add("System.err: stack traces counted (" + number(counter.counts().stackTraces())
					+ " so far); a storm is above " + threshold(this.properties.getStderrStackTraces().getPerSecond())
					+ " per second for " + duration(this.properties.getSustainedFor()));
			lines.add(this.stderrTraces.lastReport());
		}
		else {
			lines.add("System.err: not counted"
					+ (this.properties.getStderrStackTraces().isEnabled() ? ""
							: " (safe-defaults.runtime.stderr-stack-traces.enabled is false)"));
		}
		return lines;
	}

	private void publishUnavailable(String reason) {
		this.unavailableReason = reason;
		this.store.clear(this.exceptions.source());
		this.store.clear(this.stderrTraces.source());
		this.store.publish(source(JFR_UNAVAILABLE), List.of(Finding.info(JFR_UNAVAILABLE, "JVM",
				"Exception storms cannot be detected: " + reason + ".",
				"Run on a JDK, or a jlink image with the jdk.jfr module, whose flight recorder is on; or set "
						+ "safe-defaults.runtime.enabled=false.")));
	}

	private void restoreStderr() {
		StderrStackTraceCounter counter = this.stderr;
		this.stderr = null;
		if (counter != null) {
			counter.uninstall();
		}
	}

	// Called by the source, one call at a time.

	void onSample(Instant time, long throwables) {
		if (!this.running) {
			return;
		}
		this.readings++;
		StderrStackTraceCounter counter = this.stderr;
		Sample sample = new Sample(time, throwables, completedRequests(),
				(counter != null) ? counter.counts() : StderrStackTraceCounter.Counts.NONE);
		Sample previous = this.history.peekLast();
		if (previous != null && !time.isAfter(previous.time())) {
			return;
		}
		this.history.addLast(sample);
		forgetBefore(time.minus(this.properties.getSustainedFor()));
		if (previous == null) {
			this.stderrBaseline = sample.stderr();
			return;
		}
		evaluateExceptions(previous, sample);
		if (counter != null) {
			evaluateStderr(previous, sample);
		}
	}

	/**
	 * Keeps the readings of the last sustained duration, and the one just before it, so
	 * that a storm's rate is reported over that duration.
	 */
	private void forgetBefore(Instant horizon) {
		while (this.history.size() > 2) {
			Iterator<Sample> samples = this.history.iterator();
			samples.next();
			if (samples.next().time().isAfter(horizon)) {
				return;
			}
			this.history.removeFirst();
		}
	}

	void onWindow(ThrowSites sites) {
		this.windowPending = false;
		this.lastSites = sites;
		if (!this.running || !this.exceptions.tracker.storming()) {
			return;
		}
		Sample latest = this.history.peekLast();
		List<Finding> published = publishExceptionStorm(latest);
		if (this.exceptions.startLogPending) {
			logStart(this.exceptions, published);
		}
	}

	private void evaluateExceptions(Sample previous, Sample sample) {
		RuntimeStormProperties.ExceptionStorm thresholds = this.properties.getExceptionStorm();
		double seconds = seconds(previous.time(), sample.time());
		long thrown = sample.throwables() - previous.throwables();
		double rate = thrown / seconds;
		long requests = requestsBetween(previous, sample);
		double perRequest = (requests > 0) ? (double) thrown / requests : 0;
		// Per request only with at least one request a second: a few requests next to a
		// background job that throws would not say anything about the requests.
		boolean above = rate > thresholds.getPerSecond()
				|| (requests / seconds >= 1 && perRequest > thresholds.getPerRequest());
		StormState state = this.exceptions;
		switch (state.tracker.update(previous.time(), sample.time(), above)) {
			case STARTED -> {
				state.started(rate);
				boolean windowOpened = openWindowIfAllowed(sample.time());
				List<Finding> published = publishExceptionStorm(sample);
				state.startLogPending = mayLog(state, sample.time());
				if (state.startLogPending && !windowOpened) {
					logStart(state, published);
				}
			}
			case ENDED -> end(state, sample.time());
			case NONE -> {
				if (state.tracker.storming()) {
					state.peak = Math.max(state.peak, rate);
					openWindowIfAllowed(sample.time());
					publishExceptionStorm(sample);
				}
			}
		}
	}

	private void evaluateStderr(Sample previous, Sample sample) {
		double seconds = seconds(previous.time(), sample.time());
		double rate = (sample.stderr().stackTraces() - previous.stderr().stackTraces()) / seconds;
		boolean above = rate > this.properties.getStderrStackTraces().getPerSecond();
		StormState state = this.stderrTraces;
		switch (state.tracker.update(previous.time(), sample.time(), above)) {
			case STARTED -> {
				state.started(rate);
				List<Finding> published = publishStderrStorm(sample);
				if (mayLog(state, sample.time())) {
					logStart(state, published);
				}
			}
			case ENDED -> {
				end(state, sample.time());
				this.stderrBaseline = sample.stderr();
			}
			case NONE -> {
				if (state.tracker.storming()) {
					state.peak = Math.max(state.peak, rate);
					publishStderrStorm(sample);
				}
				else if (!above) {
					// Shares are counted from the last quiet moment before a storm.
					this.stderrBaseline = sample.stderr();
				}
			}
		}
	}

	private boolean openWindowIfAllowed(Instant time) {
		if (this.windowPending || (this.lastWindowAt != null && Duration.between(this.lastWindowAt, time)
			.compareTo(this.properties.getExceptionStorm().getWindowInterval()) < 0)) {
			return false;
		}
		this.lastWindowAt = time;
		this.windowPending = true;
		Duration period = this.properties.getSamplingPeriod();
		this.source.openWindow((period.compareTo(MAX_WINDOW) < 0) ? period : MAX_WINDOW);
		return true;
	}

	private List<Finding> publishExceptionStorm(Sample sample) {
		RuntimeStormProperties.ExceptionStorm thresholds = this.properties.getExceptionStorm();
		Sample oldest = this.history.peekFirst();
		double seconds = seconds(oldest.time(), sample.time());
		long thrown = sample.throwables() - oldest.throwables();
		long requests = requestsBetween(oldest, sample);
		String perRequest = (requests > 0) ? ", " + decimal((double) thrown / requests) + " per request" : "";
		String message = number(thrown / seconds) + " throwables/s" + perRequest + " over the last "
				+ duration(Duration.between(oldest.time(), sample.time())) + " (a storm since "
				+ time(this.exceptions.since) + ", peak " + number(this.exceptions.peak)
				+ "/s; thresholds " + threshold(thresholds.getPerSecond()) + "/s and "
				+ threshold(thresholds.getPerRequest()) + " per request). " + sitesText(sample.time()) + ".";
		Finding finding = Finding.warning(EXCEPTION_STORM, "JVM", message,
				"Stop creating exceptions on a path that runs all the time, at the sites named: look a class or "
						+ "resource up once and remember the answer, absent included (incident 1); check before "
						+ "parsing instead of catching, no exceptions for control flow (incident 3); build "
						+ "converters and factories once. If this rate is expected, raise "
						+ "safe-defaults.runtime.exception-storm.per-second or per-request.");
		return this.exceptions.publish(finding);
	}

	private String sitesText(Instant now) {
		ThrowSites sites = this.lastSites;
		Instant since = this.exceptions.since;
		if (sites != null && since != null && !sites.recordedAt().isBefore(since)) {
			return "Top sites: " + sites.describe();
		}
		if (this.windowPending) {
			return "Top sites: being recorded (a window of at most " + duration(MAX_WINDOW) + ")";
		}
		Instant next = (this.lastWindowAt != null)
				? this.lastWindowAt.plus(this.properties.getExceptionStorm().getWindowInterval()) : now;
		String when = "one recording per " + duration(this.properties.getExceptionStorm().getWindowInterval())
				+ ", the next from " + time(next);
		return (sites != null) ? "Top sites when last recorded, before this storm (" + when + "): " + sites.describe()
				: "Top sites: not recorded yet (" + when + ")";
	}

	private List<Finding> publishStderrStorm(Sample sample) {
		Sample oldest = this.history.peekFirst();
		double seconds = seconds(oldest.time(), sample.time());
		StderrStackTraceCounter.Counts now = sample.stderr();
		StderrStackTraceCounter.Counts then = oldest.stderr();
		String message = number((now.stackTraces() - then.stackTraces()) / seconds) + " stack traces/s ("
				+ number((now.frameLines() - then.frameLines()) / seconds) + " 'at' lines/s) printed to System.err "
				+ "over the last " + duration(Duration.between(oldest.time(), sample.time())) + " (a storm since "
				+ time(this.stderrTraces.since) + "; threshold "
				+ threshold(this.properties.getStderrStackTraces().getPerSecond()) + "/s). Most frequent: "
				+ mostFrequent(this.stderrBaseline, now) + ".";
		Finding finding = Finding.warning(STDERR_STACK_TRACES, "System.err", message,
				"Find the code that prints these exceptions (printStackTrace(), or a library or agent writing to "
						+ "System.err) and log them once through the logging framework, or fix what throws them: "
						+ "printStackTrace holds the System.err lock for every line, so printing threads queue "
						+ "behind each other (incident 8).");
		return this.stderrTraces.publish(finding);
	}

	private static String mostFrequent(StderrStackTraceCounter.Counts baseline, StderrStackTraceCounter.Counts now) {
		long all = now.stackTraces() - baseline.stackTraces();
		if (all <= 0) {
			return "(none counted)";
		}
		return now.byClass()
			.entrySet()
			.stream()
			.map((e) -> Map.entry(e.getKey(), e.getValue() - baseline.byClass().getOrDefault(e.getKey(), 0L)))
			.filter((e) -> e.getValue() > 0)
			.sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
			.limit(ThrowSites.TOP)
			.map((e) -> String.format(Locale.ROOT, "%.0f%% %s", 100.0 * e.getValue() / all, e.getKey()))
			.collect(Collectors.joining(", "));
	}

	private void end(StormState state, Instant time) {
		state.ended(time);
		this.store.clear(state.source());
		if (state.startLogPending) {
			logStart(state, state.lastPublished);
		}
		if (state.startLogged) {
			state.startLogged = false;
			this.warnings.accept("safe-defaults: the " + state.kind + " that started at " + time(state.since)
					+ " is over after " + duration(Duration.between(state.since, time)) + " (peak "
					+ number(state.peak) + "/s)");
		}
	}

	private boolean mayLog(StormState state, Instant time) {
		if (state.lastStartLoggedAt != null && Duration.between(state.lastStartLoggedAt, time)
			.compareTo(this.properties.getExceptionStorm().getWindowInterval()) < 0) {
			return false;
		}
		state.lastStartLoggedAt = time;
		return true;
	}

	private void logStart(StormState state, List<Finding> published) {
		state.startLogPending = false;
		if (published.isEmpty()) {
			// Silenced with safe-defaults.checks.disabled: never reported, not even in the log.
			return;
		}
		state.startLogged = true;
		this.warnings.accept("safe-defaults: " + state.kind + " started: " + published.get(0).toLogLine());
	}

	private long completedRequests() {
		try {
			RequestCounter counter = this.requestCounter;
			if (counter == null) {
				counter = this.requestCounters.get();
				this.requestCounter = counter;
			}
			return (counter != null) ? counter.completedRequests() : -1;
		}
		catch (RuntimeException ex) {
			return -1;
		}
	}

	private static long requestsBetween(Sample from, Sample to) {
		return (from.requests() >= 0 && to.requests() >= from.requests()) ? to.requests() - from.requests() : -1;
	}

	private static double seconds(Instant from, Instant to) {
		return Math.max(Duration.between(from, to).toNanos(), 1) / 1e9;
	}

	private static String number(double value) {
		return String.format(Locale.ROOT, "%,.0f", value);
	}

	private static String threshold(double value) {
		return (value == Math.rint(value)) ? number(value) : String.valueOf(value);
	}

	private static String decimal(double value) {
		return String.format(Locale.ROOT, "%,.1f", value);
	}

	private static String time(Instant instant) {
		return (instant != null) ? instant.truncatedTo(ChronoUnit.SECONDS).toString() : "?";
	}

	static String duration(Duration duration) {
		long millis = duration.toMillis();
		if (millis < 10_000) {
			return decimal(millis / 1000.0) + " s";
		}
		long seconds = Math.round(millis / 1000.0);
		if (seconds < 120) {
			return seconds + " s";
		}
		return (seconds < 7200) ? (seconds / 60) + " min" : (seconds / 3600) + " h";
	}

	private static String source(String id) {
		return RuntimeStormDetector.class.getName() + "#" + id;
	}

	/**
	 * One reading: the JVM's count, the completed requests and the System.err counts.
	 */
	private record Sample(Instant time, long throwables, long requests, StderrStackTraceCounter.Counts stderr) {
	}

	/**
	 * One kind of storm: its tracker, its log state and its last report.
	 */
	private final class StormState {

		private final String id;

		private final String kind;

		private final StormTracker tracker;

		private Instant since;

		private double peak;

		private boolean startLogPending;

		private boolean startLogged;

		private Instant lastStartLoggedAt;

		private List<Finding> lastPublished = List.of();

		private volatile Report lastReport;

		StormState(String id, String kind, Duration sustainedFor) {
			this.id = id;
			this.kind = kind;
			this.tracker = new StormTracker(sustainedFor);
		}

		String source() {
			return RuntimeStormDetector.source(this.id);
		}

		void started(double rate) {
			this.since = this.tracker.stormSince();
			this.peak = rate;
		}

		List<Finding> publish(Finding finding) {
			this.lastPublished = RuntimeStormDetector.this.store.publish(source(), List.of(finding));
			this.lastReport = new Report(this.since, null, this.peak, finding.message());
			return this.lastPublished;
		}

		void ended(Instant time) {
			Report report = this.lastReport;
			if (report != null) {
				this.lastReport = new Report(report.since(), time, this.peak, report.message());
			}
		}

		String lastReport() {
			Report report = this.lastReport;
			if (report == null) {
				return "no " + this.kind + " so far";
			}
			String when = (report.end() != null)
					? "from " + time(report.since()) + " to " + time(report.end()) + " ("
							+ duration(Duration.between(report.since(), report.end())) + ")"
					: "ongoing since " + time(report.since());
			return "last " + this.kind + ": " + when + ", peak " + number(report.peak())
					+ "/s; at its last reading: " + report.message();
		}

	}

	/**
	 * A storm as last reported.
	 *
	 * @param since when its rate went above the threshold
	 * @param end when it was over, {@code null} while it lasts
	 * @param peak its highest rate over one sampling interval
	 * @param message its finding's message at the last reading
	 */
	private record Report(Instant since, Instant end, double peak, String message) {
	}

	/**
	 * Passes the source's calls on; the source makes them on one thread at a time.
	 */
	private final class SourceListener implements ThrowableSource.Listener {

		@Override
		public void onSample(Instant time, long throwables) {
			try {
				RuntimeStormDetector.this.onSample(time, throwables);
			}
			catch (RuntimeException ex) {
				failedOnce(ex);
			}
		}

		@Override
		public void onWindow(ThrowSites sites) {
			try {
				RuntimeStormDetector.this.onWindow(sites);
			}
			catch (RuntimeException ex) {
				failedOnce(ex);
			}
		}

		@Override
		public void onFailure(Throwable failure) {
			if (RuntimeStormDetector.this.running) {
				publishUnavailable("the flight recorder stream stopped: " + failure);
				restoreStderr();
			}
		}

		private boolean failed;

		private void failedOnce(RuntimeException ex) {
			if (!this.failed) {
				this.failed = true;
				logger.warn("safe-defaults: the runtime storm detector failed on a reading; it keeps going", ex);
			}
		}

	}

}
