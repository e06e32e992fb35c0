package dev.safedefaults.runtime.storm;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.runtime.StackTraceCounts;
import dev.safedefaults.runtime.StderrStackTraceCounter;
import dev.safedefaults.runtime.ThrowSites;
import dev.safedefaults.runtime.ThrowableSource;
import org.jspecify.annotations.Nullable;

/**
 * The detector's readings, one at a time: keeps those of the last sustained duration,
 * hands each interval's rates to the two storms' {@link StormEvaluator}s, opens a
 * diagnostic window when an exception storm needs its throw sites (at most once per
 * window interval), and publishes each storm's finding while it lasts. Called on the
 * source's thread, one call at a time.
 */
final class StormWatch {

	private final RuntimeStormProperties properties;

	private final @Nullable ThrowableSource source;

	private final Supplier<RequestCounter> requestCounters;

	private final StormEvaluator exceptions;

	private final StormEvaluator stderrTraces;

	private final Deque<Sample> history = new ArrayDeque<>();

	private volatile @Nullable RequestCounter requestCounter;

	private @Nullable Instant lastWindowAt;

	private boolean windowPending;

	private volatile @Nullable ThrowSites lastSites;

	private StackTraceCounts.Counts stderrBaseline = StackTraceCounts.Counts.NONE;

	/**
	 * Creates the watch.
	 * @param properties the validated settings
	 * @param source where windows are opened, {@code null} without a flight recorder
	 * @param requestCounters the request counter, looked up when needed
	 * @param store where findings go
	 * @param warnings where storms' WARN lines go
	 */
	StormWatch(RuntimeStormProperties properties, @Nullable ThrowableSource source,
			Supplier<RequestCounter> requestCounters, FindingsStore store, Consumer<String> warnings) {
		this.properties = properties;
		this.source = source;
		this.requestCounters = requestCounters;
		this.exceptions = new StormEvaluator(RuntimeStormDetector.EXCEPTION_STORM, "exception storm",
				properties.getSustainedFor(), properties.getExceptionStorm().getWindowInterval(), store, warnings);
		this.stderrTraces = new StormEvaluator(RuntimeStormDetector.STDERR_STACK_TRACES, "System.err stack-trace storm",
				properties.getSustainedFor(), properties.getStderrStackTraces().getLogInterval(), store, warnings);
	}

	StormEvaluator exceptions() {
		return this.exceptions;
	}

	StormEvaluator stderrTraces() {
		return this.stderrTraces;
	}

	/**
	 * Takes one reading.
	 * @param time when the JVM took it
	 * @param throwables the JVM's cumulative count of created throwables
	 * @param counter the System.err counter, {@code null} when System.err is not counted
	 */
	void onSample(Instant time, long throwables, @Nullable StderrStackTraceCounter counter) {
		Sample sample = new Sample(time, throwables, completedRequests(),
				(counter != null) ? counter.counts() : StackTraceCounts.Counts.NONE);
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

	/**
	 * Takes a diagnostic window's sites.
	 * @param sites where the window's throws came from
	 */
	void onWindow(ThrowSites sites) {
		this.windowPending = false;
		this.lastSites = sites;
		if (!this.exceptions.storming()) {
			return;
		}
		publishExceptionStorm(this.history.peekLast());
		this.exceptions.logPendingStart();
	}

	private void evaluateExceptions(Sample previous, Sample sample) {
		RuntimeStormProperties.ExceptionStorm thresholds = this.properties.getExceptionStorm();
		double seconds = StormReports.seconds(Duration.between(previous.time(), sample.time()));
		long thrown = sample.throwables() - previous.throwables();
		double rate = thrown / seconds;
		long requests = requestsBetween(previous, sample);
		double perRequest = (requests > 0) ? (double) thrown / requests : 0;
		// Per request only with at least one request a second: a few requests next to a
		// background job that throws would not say anything about the requests.
		boolean above = rate > thresholds.getPerSecond()
				|| (requests / seconds >= 1 && perRequest > thresholds.getPerRequest());
		switch (this.exceptions.update(previous.time(), sample.time(), rate, above)) {
			case STARTED -> {
				boolean windowOpened = openWindowIfAllowed(sample.time());
				publishExceptionStorm(sample);
				// With a window open, the start is logged once the window names the
				// sites.
				this.exceptions.started(sample.time(), windowOpened);
			}
			case NONE -> {
				if (this.exceptions.storming()) {
					openWindowIfAllowed(sample.time());
					publishExceptionStorm(sample);
				}
			}
			case ENDED -> {
			}
		}
	}

	private void evaluateStderr(Sample previous, Sample sample) {
		double seconds = StormReports.seconds(Duration.between(previous.time(), sample.time()));
		double rate = (sample.stderr().stackTraces() - previous.stderr().stackTraces()) / seconds;
		boolean above = rate > this.properties.getStderrStackTraces().getPerSecond();
		switch (this.stderrTraces.update(previous.time(), sample.time(), rate, above)) {
			case STARTED -> {
				publishStderrStorm(sample);
				this.stderrTraces.started(sample.time(), false);
			}
			case ENDED -> this.stderrBaseline = sample.stderr();
			case NONE -> {
				if (this.stderrTraces.storming()) {
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
		// Samples, and so windows, come from the source only: without one there are none.
		if (this.source == null || this.windowPending
				|| (this.lastWindowAt != null && Duration.between(this.lastWindowAt, time)
					.compareTo(this.properties.getExceptionStorm().getWindowInterval()) < 0)) {
			return false;
		}
		this.lastWindowAt = time;
		this.windowPending = true;
		Duration period = this.properties.getSamplingPeriod();
		this.source.openWindow(
				(period.compareTo(RuntimeStormDetector.MAX_WINDOW) < 0) ? period : RuntimeStormDetector.MAX_WINDOW);
		return true;
	}

	private void publishExceptionStorm(Sample sample) {
		Sample oldest = this.history.peekFirst();
		Duration period = Duration.between(oldest.time(), sample.time());
		long thrown = sample.throwables() - oldest.throwables();
		long requests = requestsBetween(oldest, sample);
		Duration windowInterval = this.properties.getExceptionStorm().getWindowInterval();
		Instant nextWindow = (this.lastWindowAt != null) ? this.lastWindowAt.plus(windowInterval) : sample.time();
		String sites = StormReports.sites(this.lastSites, this.exceptions.since(), this.windowPending, nextWindow,
				windowInterval);
		this.exceptions.publish(StormReports.exceptionStorm(this.properties.getExceptionStorm(),
				thrown / StormReports.seconds(period), (requests > 0) ? (double) thrown / requests : -1, period,
				this.exceptions.since(), this.exceptions.peak(), sites));
	}

	private void publishStderrStorm(Sample sample) {
		Sample oldest = this.history.peekFirst();
		this.stderrTraces.publish(
				StormReports.stderrStorm(this.properties.getStderrStackTraces(), this.stderrBaseline, oldest.stderr(),
						sample.stderr(), Duration.between(oldest.time(), sample.time()), this.stderrTraces.since()));
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

	/**
	 * One reading: the JVM's count, the completed requests and the System.err counts.
	 */
	private record Sample(Instant time, long throwables, long requests, StackTraceCounts.Counts stderr) {
	}

}
