package dev.safedefaults.runtime.storm;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.runtime.RecordedThrowSites;
import dev.safedefaults.runtime.ThrowSites;
import dev.safedefaults.runtime.ThrowableSource;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The detector's decisions, driven by a fake source with readings one second apart: no
 * flight recorder, no clock, no waiting. Covers {@code StormWatch} (the readings of the
 * sustained duration, the diagnostic window opened at most once per window interval, the
 * finding while a storm lasts), {@code StormEvaluator} (a storm's start and end, logged
 * at most once per log interval, and its last report), {@code StormReports} (the rates,
 * sites, times and durations the findings and the log lines say) and
 * {@code RuntimeFindings} (each finding under its id and severity).
 */
@OnEveryJdk
class RuntimeStormDetectorTests {

	private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

	private final RuntimeStormProperties properties = new RuntimeStormProperties();

	private final FakeSource source = new FakeSource();

	private final List<String> warnings = new ArrayList<>();

	private FindingsStore store = new FindingsStore(List.of());

	private RuntimeStormDetector detector;

	private long throwables;

	private long requests = -1;

	private PrintStream systemErr;

	@BeforeEach
	void keepSystemErr() {
		this.systemErr = System.err;
		this.properties.getStderrStackTraces().setEnabled(false);
	}

	@AfterEach
	void stopAndRestoreSystemErr() {
		if (this.detector != null) {
			this.detector.stop();
		}
		System.setErr(this.systemErr);
	}

	private void start() {
		this.detector = new RuntimeStormDetector(this.store, this.properties, this.source, null,
				() -> () -> this.requests, this.warnings::add);
		this.detector.start();
		this.detector.onSample(T0, 0);
	}

	/**
	 * Feeds one reading per second, from second {@code from} (exclusive) to {@code to}.
	 */
	private void feed(int from, int to, long throwablesPerSecond, long requestsPerSecond) {
		for (int second = from + 1; second <= to; second++) {
			this.throwables += throwablesPerSecond;
			if (requestsPerSecond >= 0) {
				this.requests = Math.max(this.requests, 0) + requestsPerSecond;
			}
			this.detector.onSample(T0.plusSeconds(second), this.throwables);
		}
	}

	private void feed(int from, int to, long throwablesPerSecond) {
		feed(from, to, throwablesPerSecond, -1);
	}

	private List<Finding> findings(String id) {
		return this.store.findings().stream().filter((f) -> f.id().equals(id)).toList();
	}

	private static ThrowSites sites(Instant at) {
		return RecordedThrowSites.nineClassNotFoundAndOneNumberFormat(at);
	}

	@Test
	void aSustainedRateAbovePerSecondRaisesTheFindingAndOpensOneWindow() {
		start();
		feed(0, 6, 5000);
		assertThat(findings(RuntimeStormDetector.EXCEPTION_STORM)).singleElement().satisfies((finding) -> {
			assertThat(finding.severity()).isEqualTo(Severity.WARNING);
			assertThat(finding.message()).startsWith("5,000 throwables/s over the last 5.0 s")
				.contains("a storm since 2026-01-01T00:00:00Z")
				.contains("Top sites: being recorded");
		});
		assertThat(this.source.windows).containsExactly(Duration.ofSeconds(1));
	}

	@Test
	void theWindowsSitesAppearInTheFindingAndTheStartIsLoggedOnceWithThem() {
		start();
		feed(0, 5, 5000);
		assertThat(this.warnings).isEmpty();
		this.detector.onWindow(sites(T0.plusSeconds(5)));
		feed(5, 8, 5000);
		assertThat(findings(RuntimeStormDetector.EXCEPTION_STORM)).singleElement()
			.extracting(Finding::message)
			.asString()
			.contains("Top sites: 90% java.lang.ClassNotFoundException at com.example.Converters.build:42; "
					+ "10% java.lang.NumberFormatException at com.example.Ids.parse:7");
		assertThat(this.warnings).singleElement()
			.asString()
			.startsWith("safe-defaults: exception storm started: runtime.exception-storm JVM: 5,000 throwables/s")
			.contains("com.example.Converters.build:42");
	}

	@Test
	void aShortBurstRaisesNothing() {
		start();
		feed(0, 4, 50_000);
		feed(4, 20, 0);
		assertThat(this.store.findings()).isEmpty();
		assertThat(this.source.windows).isEmpty();
		assertThat(this.warnings).isEmpty();
	}

	@Test
	void theFindingIsClearedWhenTheStormEndsAndTheLastReportStays() {
		start();
		feed(0, 5, 5000);
		this.detector.onWindow(sites(T0.plusSeconds(5)));
		feed(5, 8, 8000);
		feed(8, 14, 10);
		assertThat(this.store.findings()).isEmpty();
		assertThat(this.warnings).hasSize(2);
		assertThat(this.warnings.get(1)).isEqualTo("safe-defaults: the exception storm that started at "
				+ "2026-01-01T00:00:00Z is over after 13 s (peak 8,000/s)");
		assertThat(this.detector.describe()).anySatisfy((line) -> assertThat(line)
			.startsWith("last exception storm: from 2026-01-01T00:00:00Z to 2026-01-01T00:00:13Z (13 s), peak 8,000/s")
			.contains("com.example.Converters.build:42"));
	}

	@Test
	void windowsAndLogLinesAreRateLimitedByTheWindowInterval() {
		start();
		feed(0, 5, 5000);
		this.detector.onWindow(sites(T0.plusSeconds(5)));
		feed(5, 12, 0);
		feed(12, 18, 5000);
		assertThat(this.source.windows).hasSize(1);
		assertThat(this.warnings).hasSize(2);
		assertThat(findings(RuntimeStormDetector.EXCEPTION_STORM)).singleElement()
			.extracting(Finding::message)
			.asString()
			.contains("Top sites when last recorded, before this storm (one recording per 10 min, the next from "
					+ "2026-01-01T00:10:05Z): 90% java.lang.ClassNotFoundException");
		feed(18, 610, 5000);
		assertThat(this.source.windows).hasSize(2);
		assertThat(this.warnings).hasSize(2);
	}

	@Test
	void aStormThatLastsGetsAFreshWindowEachInterval() {
		start();
		feed(0, 5, 5000);
		this.detector.onWindow(sites(T0.plusSeconds(5)));
		feed(5, 604, 5000);
		assertThat(this.source.windows).hasSize(1);
		feed(604, 605, 5000);
		assertThat(this.source.windows).hasSize(2);
		this.detector.onWindow(sites(T0.plusSeconds(605)));
		feed(605, 1204, 5000);
		assertThat(this.source.windows).hasSize(2);
		feed(1204, 1205, 5000);
		assertThat(this.source.windows).hasSize(3);
		assertThat(this.warnings).hasSize(1);
	}

	@Test
	void throwablesPerRequestAboveItsThresholdAreAStorm() {
		start();
		feed(0, 6, 200, 10);
		assertThat(findings(RuntimeStormDetector.EXCEPTION_STORM)).singleElement()
			.extracting(Finding::message)
			.asString()
			.startsWith("200 throwables/s, 20.0 per request over the last 5.0 s");
	}

	@Test
	void perRequestAppliesFromOneRequestASecond() {
		start();
		feed(0, 6, 20, 1);
		assertThat(findings(RuntimeStormDetector.EXCEPTION_STORM)).singleElement()
			.extracting(Finding::message)
			.asString()
			.startsWith("20 throwables/s, 20.0 per request");
	}

	@Test
	void perRequestDoesNotApplyBelowOneRequestASecond() {
		start();
		this.requests = 0;
		for (int reading = 1; reading <= 10; reading++) {
			// readings two seconds apart: a background job throwing 50 a second, one
			// request
			this.throwables += 100;
			this.requests += 1;
			this.detector.onSample(T0.plusSeconds(2 * reading), this.throwables);
		}
		assertThat(this.store.findings()).isEmpty();
	}

	@Test
	void exceptionsForControlFlowOnEveryRequestAreAStormAtLowTrafficByDefault() {
		// The naive profile: six per request, at 50 requests a second far below the
		// per-second threshold.
		start();
		feed(0, 6, 300, 50);
		assertThat(findings(RuntimeStormDetector.EXCEPTION_STORM)).singleElement()
			.extracting(Finding::message)
			.asString()
			.startsWith("300 throwables/s, 6.0 per request");
	}

	@Test
	void clientsClosingConnectionsAndHalfTheRequestsFailingAreNotAStormByDefault() {
		// About one EOFException per request from connections the clients close, and five
		// more
		// for each request whose downstream call fails: with half of them failing, 3.5
		// per request.
		start();
		feed(0, 10, 350, 100);
		assertThat(this.store.findings()).isEmpty();
	}

	@Test
	void normalLoadRaisesNothing() {
		start();
		feed(0, 10, 300, 1000);
		assertThat(this.store.findings()).isEmpty();
		assertThat(this.source.windows).isEmpty();
	}

	@Test
	void aSourceThatCannotStartYieldsOneInfoFindingAndNothingElse() {
		this.properties.getStderrStackTraces().setEnabled(true);
		this.source.failOnStart = true;
		this.detector = new RuntimeStormDetector(this.store, this.properties, this.source, null, () -> null,
				this.warnings::add);
		this.detector.start();
		assertThat(this.store.findings()).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo(RuntimeStormDetector.JFR_UNAVAILABLE);
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.message()).contains("the flight recorder could not be started");
		});
		assertThat(System.err).isSameAs(this.systemErr);
		assertThat(this.detector.isFlightRecorderAvailable()).isFalse();
	}

	@Test
	void aSilencedIdIsNeitherReportedNorLogged() {
		this.store = new FindingsStore(List.of(RuntimeStormDetector.EXCEPTION_STORM));
		start();
		feed(0, 5, 5000);
		this.detector.onWindow(sites(T0.plusSeconds(5)));
		feed(5, 20, 0);
		assertThat(this.store.findings()).isEmpty();
		assertThat(this.warnings).isEmpty();
	}

	@Test
	void aStderrStormRaisesItsFindingNamingTheMostFrequentClass() {
		System.setErr(new PrintStream(OutputStream.nullOutputStream(), true));
		this.properties.getStderrStackTraces().setEnabled(true);
		start();
		for (int second = 1; second <= 6; second++) {
			for (int i = 0; i < 30; i++) {
				new ArrayIndexOutOfBoundsException(i).printStackTrace();
			}
			new IllegalStateException().printStackTrace();
			feed(second - 1, second, 0);
		}
		assertThat(findings(RuntimeStormDetector.STDERR_STACK_TRACES)).singleElement()
			.extracting(Finding::message)
			.asString()
			.startsWith("31 stack traces/s")
			.contains(
					"Most frequent: 97% java.lang.ArrayIndexOutOfBoundsException, 3% java.lang.IllegalStateException");
		assertThat(this.warnings).singleElement()
			.asString()
			.startsWith("safe-defaults: System.err stack-trace storm started");
	}

	@Test
	void stderrStormStartsAreLoggedAtMostOncePerItsOwnLogInterval() {
		System.setErr(new PrintStream(OutputStream.nullOutputStream(), true));
		this.properties.getStderrStackTraces().setEnabled(true);
		// The exception storm's interval would allow both starts; the stderr storm's own
		// must not.
		this.properties.getExceptionStorm().setWindowInterval(Duration.ofSeconds(1));
		this.properties.getStderrStackTraces().setLogInterval(Duration.ofMinutes(10));
		start();
		printStorm(0, 6);
		feed(6, 12, 0);
		assertThat(findings(RuntimeStormDetector.STDERR_STACK_TRACES)).isEmpty();
		printStorm(12, 18);
		assertThat(findings(RuntimeStormDetector.STDERR_STACK_TRACES)).hasSize(1);
		assertThat(this.warnings).filteredOn((line) -> line.contains("System.err stack-trace storm started"))
			.hasSize(1);
	}

	@Test
	void stderrStormStartsAreLoggedAgainAfterItsOwnLogInterval() {
		System.setErr(new PrintStream(OutputStream.nullOutputStream(), true));
		this.properties.getStderrStackTraces().setEnabled(true);
		this.properties.getStderrStackTraces().setLogInterval(Duration.ofSeconds(5));
		start();
		printStorm(0, 6);
		feed(6, 12, 0);
		printStorm(12, 18);
		assertThat(this.warnings).filteredOn((line) -> line.contains("System.err stack-trace storm started"))
			.hasSize(2);
	}

	/**
	 * Prints 20 stack traces a second from second {@code from} (exclusive) to {@code to}.
	 */
	private void printStorm(int from, int to) {
		for (int second = from + 1; second <= to; second++) {
			for (int i = 0; i < 20; i++) {
				new IllegalStateException().printStackTrace();
			}
			feed(second - 1, second, 0);
		}
	}

	@Test
	void stopPutsTheOriginalSystemErrBack() {
		PrintStream sink = new PrintStream(OutputStream.nullOutputStream(), true);
		System.setErr(sink);
		this.properties.getStderrStackTraces().setEnabled(true);
		start();
		assertThat(System.err).isNotSameAs(sink);
		this.detector.stop();
		assertThat(System.err).isSameAs(sink);
	}

	/**
	 * Stands in for the flight recorder: the test gives the readings.
	 */
	static final class FakeSource implements ThrowableSource {

		final List<Duration> windows = new ArrayList<>();

		boolean failOnStart;

		@Override
		public void start(Duration samplingPeriod, Listener listener) {
			if (this.failOnStart) {
				throw new IllegalStateException("no recorder here");
			}
		}

		@Override
		public void openWindow(Duration length) {
			this.windows.add(length);
		}

		@Override
		public long throwables() {
			return 0;
		}

		@Override
		public void close() {
		}

		@Override
		public String describe() {
			return "a fake";
		}

	}

}
