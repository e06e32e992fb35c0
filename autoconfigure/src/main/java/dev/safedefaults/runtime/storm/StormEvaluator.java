package dev.safedefaults.runtime.storm;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import org.jspecify.annotations.Nullable;

/**
 * One kind of storm (exceptions, or stack traces printed to {@code System.err}), from one
 * sampling interval to the next: whether it is on, since when and at what peak; its
 * finding while it lasts; its start and end logged at WARN, at most one start per log
 * interval; and its last report for the feature status. Each kind has one, with its own
 * settings.
 * <p>
 * Used by the detector's reading thread only; the last report is read from any thread.
 */
final class StormEvaluator {

	private final String id;

	private final String kind;

	private final Duration logInterval;

	private final StormTracker tracker;

	private final FindingsStore store;

	private final Consumer<String> warnings;

	private @Nullable Instant since;

	private double peak;

	private boolean startLogPending;

	private boolean startLogged;

	private @Nullable Instant lastStartLoggedAt;

	private List<Finding> lastPublished = List.of();

	private volatile StormReports.@Nullable Report lastReport;

	/**
	 * Creates the evaluator of one kind of storm.
	 * @param id the finding's id
	 * @param kind what the storm is called in the log, e.g. {@code exception storm}
	 * @param sustainedFor how long a rate must stay above (or below) its threshold to
	 * start (or end) a storm
	 * @param logInterval the least time between two logged starts
	 * @param store where the finding goes
	 * @param warnings where the WARN lines go
	 */
	StormEvaluator(String id, String kind, Duration sustainedFor, Duration logInterval, FindingsStore store,
			Consumer<String> warnings) {
		this.id = id;
		this.kind = kind;
		this.logInterval = logInterval;
		this.tracker = new StormTracker(sustainedFor);
		this.store = store;
		this.warnings = warnings;
	}

	/**
	 * Takes one sampling interval's rate. On {@link StormTracker.Transition#ENDED} the
	 * finding is already cleared and the end logged; on
	 * {@link StormTracker.Transition#STARTED} or while the storm lasts the caller
	 * publishes the finding with {@link #publish}.
	 * @param intervalStart when the interval began
	 * @param intervalEnd when it ended
	 * @param rate the interval's rate, per second
	 * @param above whether the rate was above a threshold
	 * @return what changed
	 */
	StormTracker.Transition update(Instant intervalStart, Instant intervalEnd, double rate, boolean above) {
		StormTracker.Transition transition = this.tracker.update(intervalStart, intervalEnd, above);
		switch (transition) {
			case STARTED -> {
				this.since = this.tracker.stormSince();
				this.peak = rate;
			}
			case ENDED -> end(intervalEnd);
			case NONE -> {
				if (this.tracker.storming()) {
					this.peak = Math.max(this.peak, rate);
				}
			}
		}
		return transition;
	}

	boolean storming() {
		return this.tracker.storming();
	}

	/**
	 * When the current (or last) storm's rate first went above the threshold.
	 * @return the time, {@code null} before the first storm
	 */
	@Nullable Instant since() {
		return this.since;
	}

	double peak() {
		return this.peak;
	}

	/**
	 * Publishes the storm's finding as of now.
	 * @param finding the finding
	 * @return what the store published (empty when the finding is silenced)
	 */
	List<Finding> publish(Finding finding) {
		this.lastPublished = this.store.publish(source(), List.of(finding));
		// Published only while a storm lasts, which has started.
		this.lastReport = new StormReports.Report(Objects.requireNonNull(this.since), null, this.peak,
				finding.message());
		return this.lastPublished;
	}

	/**
	 * Logs the start of a storm that has just started, unless one was logged within the
	 * log interval.
	 * @param time when it started
	 * @param later whether to wait for {@link #logPendingStart()} (the finding is still
	 * being completed, e.g. with its throw sites)
	 */
	void started(Instant time, boolean later) {
		if (this.lastStartLoggedAt != null
				&& Duration.between(this.lastStartLoggedAt, time).compareTo(this.logInterval) < 0) {
			return;
		}
		this.lastStartLoggedAt = time;
		this.startLogPending = true;
		if (!later) {
			logPendingStart();
		}
	}

	/**
	 * Logs a start that was left for later, with the finding as last published.
	 */
	void logPendingStart() {
		if (!this.startLogPending) {
			return;
		}
		this.startLogPending = false;
		if (this.lastPublished.isEmpty()) {
			// Silenced with safe-defaults.checks.disabled: never reported, not even in
			// the log.
			return;
		}
		this.startLogged = true;
		this.warnings.accept("safe-defaults: " + this.kind + " started: " + this.lastPublished.get(0).toLogLine());
	}

	/**
	 * Clears the finding, for instance when the detector can no longer read its source.
	 */
	void clear() {
		this.store.clear(source());
	}

	/**
	 * The last storm, for the feature status.
	 * @return one line
	 */
	String lastReport() {
		return StormReports.lastReport(this.kind, this.lastReport);
	}

	private void end(Instant time) {
		StormReports.Report report = this.lastReport;
		if (report != null) {
			this.lastReport = new StormReports.Report(report.since(), time, this.peak, report.message());
		}
		clear();
		logPendingStart();
		if (this.startLogged) {
			this.startLogged = false;
			this.warnings.accept("safe-defaults: the " + this.kind + " that started at " + StormReports.time(this.since)
					+ " is over after " + StormReports.duration(Duration.between(this.since, time)) + " (peak "
					+ StormReports.number(this.peak) + "/s)");
		}
	}

	private String source() {
		return RuntimeStormDetector.source(this.id);
	}

}
