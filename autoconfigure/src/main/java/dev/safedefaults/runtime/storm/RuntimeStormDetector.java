package dev.safedefaults.runtime.storm;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.runtime.StderrStackTraceCounter;
import dev.safedefaults.runtime.ThrowSites;
import dev.safedefaults.runtime.ThrowableSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

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
 * {@code runtime.exception-storm} appears, and a diagnostic window records where the
 * throws come from, at most once per window interval. When the rate has stayed below for
 * the sustained duration the finding is cleared; the last storm's report stays in the
 * feature status.</li>
 * <li>The same for stack traces printed to {@code System.err}:
 * {@code runtime.stderr-stack-traces}.</li>
 * </ul>
 * A storm's start and end are each logged once at WARN, at most one start per log
 * interval of its kind ({@code exception-storm.window-interval},
 * {@code stderr-stack-traces.log-interval}). Runtime findings are published straight into
 * the {@link FindingsStore}: the startup checks' {@code fail-on} never applies to them.
 * Without a usable flight recorder there is one INFO finding,
 * {@code runtime.jfr-unavailable}, and nothing else.
 */
public final class RuntimeStormDetector implements SmartLifecycle {

	/** Id of the exception-storm finding. */
	public static final String EXCEPTION_STORM = RuntimeFindings.EXCEPTION_STORM.id();

	/** Id of the finding for stack traces printed to {@code System.err}. */
	public static final String STDERR_STACK_TRACES = RuntimeFindings.STDERR_STACK_TRACES.id();

	/** Id of the finding raised when the JVM has no usable flight recorder. */
	public static final String JFR_UNAVAILABLE = RuntimeFindings.JFR_UNAVAILABLE.id();

	/** The longest diagnostic window: it slows throwing code while it is open. */
	static final Duration MAX_WINDOW = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(RuntimeStormDetector.class);

	private final FindingsStore store;

	private final RuntimeStormProperties properties;

	private final @Nullable ThrowableSource source;

	private final StormWatch watch;

	private volatile @Nullable String unavailableReason;

	private volatile boolean running;

	private volatile @Nullable StderrStackTraceCounter stderr;

	private volatile long readings;

	private volatile @Nullable Instant lastReadingTime;

	/**
	 * Creates a detector that logs through commons-logging.
	 * @param store where findings go
	 * @param properties the validated settings
	 * @param source the flight recorder, {@code null} when it cannot be used
	 * @param unavailableReason why there is no source, {@code null} when there is one
	 * @param requestCounters the request counter, looked up when needed
	 */
	RuntimeStormDetector(FindingsStore store, RuntimeStormProperties properties, @Nullable ThrowableSource source,
			@Nullable String unavailableReason, Supplier<RequestCounter> requestCounters) {
		this(store, properties, source, unavailableReason, requestCounters, logger::warn);
	}

	RuntimeStormDetector(FindingsStore store, RuntimeStormProperties properties, @Nullable ThrowableSource source,
			@Nullable String unavailableReason, Supplier<RequestCounter> requestCounters, Consumer<String> warnings) {
		this.store = store;
		this.properties = properties;
		this.source = source;
		this.unavailableReason = (source != null) ? null : unavailableReason;
		this.watch = new StormWatch(properties, source, requestCounters, store, warnings);
	}

	@Override
	public void start() {
		this.running = true;
		if (this.source == null) {
			// Without a source the constructor was given the reason.
			publishUnavailable(Objects.requireNonNull(this.unavailableReason));
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
	 * {@code runtime.jfr-unavailable}.
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
	 * When the JVM took the last reading the detector took.
	 * @return the time, {@code null} before the first reading
	 */
	@Nullable Instant lastReadingTime() {
		return this.lastReadingTime;
	}

	/**
	 * Why the flight recorder cannot be used.
	 * @return the reason, {@code null} when it can
	 */
	@Nullable String unavailableReason() {
		return this.unavailableReason;
	}

	/**
	 * What the detector watches and the last storm of each kind, for the feature status.
	 * @return one line per item
	 */
	List<String> describe() {
		List<String> lines = new ArrayList<>();
		RuntimeStormProperties.ExceptionStorm storm = this.properties.getExceptionStorm();
		// Described only when the flight recorder is in use (no unavailable reason).
		lines.add("exception storms: " + Objects.requireNonNull(this.source).describe() + "; a storm is above "
				+ StormReports.threshold(storm.getPerSecond()) + " throwables/s or "
				+ StormReports.threshold(storm.getPerRequest()) + " per request for "
				+ StormReports.duration(this.properties.getSustainedFor()) + "; " + StormReports.number(throwables())
				+ " throwables created so far");
		lines.add(this.watch.exceptions().lastReport());
		StderrStackTraceCounter counter = this.stderr;
		if (counter != null) {
			lines.add("System.err: stack traces counted (" + StormReports.number(counter.counts().stackTraces())
					+ " so far); a storm is above "
					+ StormReports.threshold(this.properties.getStderrStackTraces().getPerSecond()) + " per second for "
					+ StormReports.duration(this.properties.getSustainedFor()));
			lines.add(this.watch.stderrTraces().lastReport());
		}
		else {
			lines.add("System.err: not counted" + (this.properties.getStderrStackTraces().isEnabled() ? ""
					: " (safe-defaults.runtime.stderr-stack-traces.enabled is false)"));
		}
		return lines;
	}

	private void publishUnavailable(String reason) {
		this.unavailableReason = reason;
		this.watch.exceptions().clear();
		this.watch.stderrTraces().clear();
		this.store.publish(source(JFR_UNAVAILABLE), List.of(RuntimeFindings.JFR_UNAVAILABLE.raise("JVM", reason)));
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
		if (this.running) {
			try {
				this.watch.onSample(time, throwables, this.stderr);
			}
			finally {
				// After the reading's findings are published: whoever sees it counted
				// sees them.
				this.lastReadingTime = time;
				this.readings++;
			}
		}
	}

	void onWindow(ThrowSites sites) {
		if (this.running) {
			this.watch.onWindow(sites);
		}
	}

	static String source(String id) {
		return RuntimeStormDetector.class.getName() + "#" + id;
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
