package dev.safedefaults.runtime.storm;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import dev.safedefaults.check.Finding;
import dev.safedefaults.runtime.StackTraceCounts;
import dev.safedefaults.runtime.ThrowSites;
import org.jspecify.annotations.Nullable;

/**
 * Writes what the storm detector says: the storm findings' messages (their types, with
 * the fixes, are declared in {@link RuntimeFindings}), the last storm of each kind for
 * the feature status, and the numbers, times and durations in them. Text only: it decides
 * nothing.
 */
final class StormReports {

	private StormReports() {
	}

	/**
	 * The exception-storm finding.
	 * @param settings its thresholds
	 * @param throwablesPerSecond the rate over the reported period
	 * @param perRequest throwables per completed request over it, negative when unknown
	 * @param period how long the reported period is
	 * @param since when the storm began
	 * @param peak its highest rate over one sampling interval
	 * @param sites where the throws come from, as text
	 * @return the finding
	 */
	static Finding exceptionStorm(RuntimeStormProperties.ExceptionStorm settings, double throwablesPerSecond,
			double perRequest, Duration period, @Nullable Instant since, double peak, String sites) {
		String requests = (perRequest >= 0) ? ", " + decimal(perRequest) + " per request" : "";
		String message = number(throwablesPerSecond) + " throwables/s" + requests + " over the last " + duration(period)
				+ " (a storm since " + time(since) + ", peak " + number(peak) + "/s; thresholds "
				+ threshold(settings.getPerSecond()) + "/s and " + threshold(settings.getPerRequest())
				+ " per request). " + sites + ".";
		return RuntimeFindings.EXCEPTION_STORM.raise("JVM", message);
	}

	/**
	 * Where an exception storm's throws come from, as far as known.
	 * @param sites the last recorded sites, {@code null} when none
	 * @param since when the storm began
	 * @param windowPending whether a window is being recorded
	 * @param nextWindow when the next window may open
	 * @param windowInterval the least time between two windows
	 * @return the text
	 */
	static String sites(@Nullable ThrowSites sites, @Nullable Instant since, boolean windowPending, Instant nextWindow,
			Duration windowInterval) {
		if (sites != null && since != null && !sites.recordedAt().isBefore(since)) {
			return "Top sites: " + sites.describe();
		}
		if (windowPending) {
			return "Top sites: being recorded (a window of at most " + duration(RuntimeStormDetector.MAX_WINDOW) + ")";
		}
		String when = "one recording per " + duration(windowInterval) + ", the next from " + time(nextWindow);
		return (sites != null) ? "Top sites when last recorded, before this storm (" + when + "): " + sites.describe()
				: "Top sites: not recorded yet (" + when + ")";
	}

	/**
	 * The finding for stack traces printed to {@code System.err}.
	 * @param settings its threshold
	 * @param baseline the counts at the last quiet moment before the storm
	 * @param oldest the counts at the start of the reported period
	 * @param now the counts now
	 * @param period how long the reported period is
	 * @param since when the storm began
	 * @return the finding
	 */
	static Finding stderrStorm(RuntimeStormProperties.StderrStackTraces settings, StackTraceCounts.Counts baseline,
			StackTraceCounts.Counts oldest, StackTraceCounts.Counts now, Duration period, @Nullable Instant since) {
		double seconds = seconds(period);
		String message = number((now.stackTraces() - oldest.stackTraces()) / seconds) + " stack traces/s ("
				+ number((now.frameLines() - oldest.frameLines()) / seconds) + " 'at' lines/s) printed to System.err "
				+ "over the last " + duration(period) + " (a storm since " + time(since) + "; threshold "
				+ threshold(settings.getPerSecond()) + "/s). Most frequent: " + mostFrequent(baseline, now) + ".";
		return RuntimeFindings.STDERR_STACK_TRACES.raise("System.err", message);
	}

	private static String mostFrequent(StackTraceCounts.Counts baseline, StackTraceCounts.Counts now) {
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

	/**
	 * The last storm of a kind, for the feature status.
	 * @param kind what the storm is called
	 * @param report the storm as last reported, {@code null} when there was none
	 * @return one line
	 */
	static String lastReport(String kind, @Nullable Report report) {
		if (report == null) {
			return "no " + kind + " so far";
		}
		String when = (report.end() != null)
				? "from " + time(report.since()) + " to " + time(report.end()) + " ("
						+ duration(Duration.between(report.since(), report.end())) + ")"
				: "ongoing since " + time(report.since());
		return "last " + kind + ": " + when + ", peak " + number(report.peak()) + "/s; at its last reading: "
				+ report.message();
	}

	static double seconds(Duration period) {
		return Math.max(period.toNanos(), 1) / 1e9;
	}

	static String number(double value) {
		return String.format(Locale.ROOT, "%,.0f", value);
	}

	static String threshold(double value) {
		return (value == Math.rint(value)) ? number(value) : String.valueOf(value);
	}

	static String decimal(double value) {
		return String.format(Locale.ROOT, "%,.1f", value);
	}

	static String time(@Nullable Instant instant) {
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

	/**
	 * A storm as last reported.
	 *
	 * @param since when its rate went above the threshold
	 * @param end when it was over, {@code null} while it lasts
	 * @param peak its highest rate over one sampling interval
	 * @param message its finding's message at the last reading
	 */
	record Report(Instant since, @Nullable Instant end, double peak, String message) {
	}

}
