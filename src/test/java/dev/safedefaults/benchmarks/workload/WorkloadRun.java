package dev.safedefaults.benchmarks.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.safedefaults.system.SampleAppProcess;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import tools.jackson.databind.json.JsonMapper;

/**
 * One mode of the reference workload, measured: the packaged sample app started, warmed
 * up, loaded for a fixed time, its CPU (the process's and by thread), throwables (JFR
 * {@code jdk.ExceptionStatistics}) and database statements (MariaDB's {@code Questions})
 * counted around the measured load.
 */
final class WorkloadRun {

	private static final JsonMapper json = JsonMapper.builder().build();

	/**
	 * The figures of one run.
	 *
	 * @param mode the mode
	 * @param load the measured load
	 * @param cpuMillisPerRequest process CPU per answered request
	 * @param throwablesPerRequest throwables created per answered request
	 * @param statementsPerRequest database statements (Questions) per answered request
	 * @param discarded log events the starter discarded ({@code -1}: the starter is off)
	 * @param findings the finding ids at /actuator/health/safe-defaults (empty when off)
	 * @param cpuMillis process CPU during the measured load
	 * @param threadCpuMillis CPU during the measured load by thread name (see
	 * {@link ThreadCpu})
	 * @param restClientCalls calls through Boot's {@code RestClient} during the measured
	 * load (Boot's {@code http.client.requests} timer: the HTTP service client's calls,
	 * none of Feign's)
	 */
	record Figures(WorkloadMode mode, LoadDriver.Result load, double cpuMillisPerRequest, double throwablesPerRequest,
			double statementsPerRequest, long discarded, List<String> findings, long cpuMillis,
			Map<String, Long> threadCpuMillis, long restClientCalls, Idle idle) {
	}

	/**
	 * What the process costs besides its requests.
	 *
	 * @param startupSeconds from the launch to the first answer of its health endpoint
	 * (the embedded database's start included)
	 * @param cpuMillisPerSecond CPU of the process per second with no traffic, measured
	 * after the load (settled for {@value #IDLE_SETTLE_SECONDS} s), or -1 when not
	 * measured ({@code workload.idle-seconds} is 0)
	 * @param residentKb the process's resident memory after the load ({@code VmRSS}), or
	 * -1 where {@code /proc} does not tell
	 */
	record Idle(double startupSeconds, double cpuMillisPerSecond, long residentKb) {
	}

	/** Seconds left after the load before the idle window starts. */
	static final int IDLE_SETTLE_SECONDS = 3;

	private WorkloadRun() {
	}

	static Figures measure(WorkloadMode mode, String name, int threads, Duration warmup, Duration duration,
			boolean stallStdout) throws Exception {
		return measure(mode, List.of(), name, threads, warmup, duration, stallStdout);
	}

	static Figures measure(WorkloadMode mode, List<String> extraJvmArgs, String name, int threads, Duration warmup,
			Duration duration, boolean stallStdout) throws Exception {
		return measure(mode, extraJvmArgs, name, threads, warmup, duration, stallStdout, true);
	}

	/**
	 * Measures one run.
	 * @param mode the mode
	 * @param extraJvmArgs JVM arguments added to the mode's
	 * @param name names the run's files
	 * @param threads client threads
	 * @param warmup load before the measurement
	 * @param duration the measured load
	 * @param stallStdout whether stdout stops being read after warm-up
	 * @param countThrowables whether the harness starts a flight recording to count
	 * throwables (without it throwables per request are {@code -1}, and the app's JVM has
	 * no recording but its own)
	 * @return the figures
	 */
	static Figures measure(WorkloadMode mode, List<String> extraJvmArgs, String name, int threads, Duration warmup,
			Duration duration, boolean stallStdout, boolean countThrowables) throws Exception {
		return measure(mode, extraJvmArgs, List.of(), name, threads, warmup, duration, stallStdout, countThrowables);
	}

	/**
	 * Measures one run with application arguments added to the mode's.
	 * @param mode the mode
	 * @param extraJvmArgs JVM arguments added to the mode's
	 * @param extraAppArgs application arguments added to the mode's (e.g.
	 * {@code --sample.pricing.client=http-service})
	 * @param name names the run's files
	 * @param threads client threads
	 * @param warmup load before the measurement
	 * @param duration the measured load
	 * @param stallStdout whether stdout stops being read after warm-up
	 * @param countThrowables whether the harness starts a flight recording to count
	 * throwables
	 * @return the figures
	 */
	static Figures measure(WorkloadMode mode, List<String> extraJvmArgs, List<String> extraAppArgs, String name,
			int threads, Duration warmup, Duration duration, boolean stallStdout, boolean countThrowables)
			throws Exception {
		Path recording = Path.of("target", "workload-" + name + ".jfr").toAbsolutePath();
		Files.deleteIfExists(recording);
		List<String> jvmArgs = new ArrayList<>(mode.jvmArgs);
		jvmArgs.addAll(extraJvmArgs);
		if (countThrowables) {
			jvmArgs.add("-XX:StartFlightRecording:settings=" + exceptionStatisticsSettings() + ",filename=" + recording
					+ ",dumponexit=true");
		}
		List<String> appArgs = new ArrayList<>(mode.appArgs);
		appArgs.addAll(extraAppArgs);
		LoadDriver driver = new LoadDriver();
		long launched = System.nanoTime();
		try (SampleAppProcess app = SampleAppProcess.start(name, jvmArgs, appArgs, stallStdout)) {
			double startupSeconds = (System.nanoTime() - launched) / 1e9;
			if (!app.isAlive()) {
				throw new IllegalStateException(mode + " did not start:\n" + app.log());
			}
			driver.run(app.baseUrl(), threads, warmup, Long.MAX_VALUE);
			if (stallStdout) {
				app.stallStdout();
			}
			long restClientCallsBefore = restClientCalls(app);
			long statementsBefore = statements(app);
			Duration cpuBefore = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
			Map<String, Long> threadsBefore = ThreadCpu.millisByName(app.handle());
			Instant from = Instant.now();
			LoadDriver.Result load = driver.run(app.baseUrl(), threads, duration, Long.MAX_VALUE);
			Instant to = Instant.now();
			Duration cpuAfter = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
			Map<String, Long> threadCpu = ThreadCpu.between(threadsBefore, ThreadCpu.millisByName(app.handle()));
			long statementsAfter = statements(app);
			long restClientCalls = restClientCalls(app) - restClientCallsBefore;
			boolean starterOn = !jvmArgs.contains("-Dsafe-defaults.enabled=false");
			long discarded = discarded(app, starterOn);
			List<String> findings = starterOn ? List.copyOf(app.findingMessages().keySet()) : absentFindings(app);
			Idle idle = new Idle(startupSeconds, idleCpuMillisPerSecond(app), residentKb(app));
			app.close();
			long requests = Math.max(1, load.requests());
			// The gauge's own query counts too: the second read's.
			double statements = (statementsAfter - statementsBefore - 1) / (double) requests;
			double throwables = countThrowables ? throwablesBetween(recording, from, to) / (double) requests : -1;
			long cpuMillis = cpuAfter.minus(cpuBefore).toMillis();
			return new Figures(mode, load, cpuMillis / (double) requests, throwables, statements, discarded, findings,
					cpuMillis, threadCpu, restClientCalls, idle);
		}
	}

	/**
	 * The process's CPU per second over {@code workload.idle-seconds} (0: not measured)
	 * with no request, after {@value #IDLE_SETTLE_SECONDS} s for the load's last work
	 * (the compiler's queue, the log writer) to end.
	 */
	private static double idleCpuMillisPerSecond(SampleAppProcess app) throws InterruptedException {
		return idleCpuMillisPerSecond(app, Integer.getInteger("workload.idle-seconds", 0));
	}

	/**
	 * The process's CPU per second over {@code seconds} with no request, after
	 * {@value #IDLE_SETTLE_SECONDS} s; -1 when {@code seconds} is 0.
	 */
	static double idleCpuMillisPerSecond(SampleAppProcess app, int seconds) throws InterruptedException {
		if (seconds <= 0) {
			return -1;
		}
		Thread.sleep(IDLE_SETTLE_SECONDS * 1000L);
		Duration before = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
		long from = System.nanoTime();
		Thread.sleep(seconds * 1000L);
		Duration after = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
		return after.minus(before).toNanos() / 1e6 / ((System.nanoTime() - from) / 1e9);
	}

	static long residentKb(SampleAppProcess app) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc", Long.toString(app.handle().pid()), "status"))) {
				if (line.startsWith("VmRSS:")) {
					return Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux, or the process is gone.
		}
		return -1;
	}

	/**
	 * Flight-recorder settings with {@code jdk.ExceptionStatistics} alone, every second
	 * (what the detector records), in a temporary file.
	 * @return the settings file
	 */
	static Path exceptionStatisticsSettings() throws IOException {
		Path jfc = Files.createTempFile("exception-statistics", ".jfc");
		Files.writeString(jfc, """
				<?xml version="1.0" encoding="UTF-8"?>
				<configuration version="2.0">
				  <event name="jdk.ExceptionStatistics">
				    <setting name="enabled">true</setting>
				    <setting name="period">1 s</setting>
				  </event>
				</configuration>
				""");
		return jfc;
	}

	/**
	 * The statements the app's embedded database has executed (MariaDB's
	 * {@code Questions}), from the sample's gauge: the harness never logs in to the
	 * database itself.
	 */
	private static long statements(SampleAppProcess app) {
		var response = app.get("/actuator/metrics/sample.db.statements");
		if (response.statusCode() != 200) {
			throw new IllegalStateException("No statement count: GET /actuator/metrics/sample.db.statements answered "
					+ response.statusCode() + " " + response.body());
		}
		return (long) json.readTree(response.body()).path("measurements").path(0).path("value").asDouble();
	}

	/**
	 * Calls through Boot's {@code RestClient} so far: the count of Boot's
	 * {@code http.client.requests} timer, which every client built from Boot's builder
	 * records (the HTTP service group's and one built per request alike), and 0 before
	 * the first (the timer does not exist yet). Feign's calls are not in it.
	 */
	private static long restClientCalls(SampleAppProcess app) {
		var response = app.get("/actuator/metrics/http.client.requests");
		if (response.statusCode() == 404) {
			return 0;
		}
		if (response.statusCode() != 200) {
			throw new IllegalStateException("GET /actuator/metrics/http.client.requests answered "
					+ response.statusCode() + " " + response.body());
		}
		for (var measurement : json.readTree(response.body()).path("measurements")) {
			if (measurement.path("statistic").asString().equals("COUNT")) {
				return (long) measurement.path("value").asDouble();
			}
		}
		throw new IllegalStateException("http.client.requests has no COUNT: " + response.body());
	}

	/**
	 * The starter's count of discarded log events: it must answer when the starter is on,
	 * and be absent (404, then {@code -1}) when it is off; any other answer fails the
	 * run.
	 */
	private static long discarded(SampleAppProcess app, boolean starterOn) {
		var response = app.get("/actuator/metrics/safedefaults.logging.discarded");
		if (starterOn && response.statusCode() == 200) {
			return (long) json.readTree(response.body()).path("measurements").path(0).path("value").asDouble();
		}
		if (!starterOn && response.statusCode() == 404) {
			return -1;
		}
		throw new IllegalStateException("GET /actuator/metrics/safedefaults.logging.discarded with the starter "
				+ (starterOn ? "on" : "off") + " answered " + response.statusCode() + ": " + response.body());
	}

	/** With the starter off its health group must be absent (404): no findings. */
	private static List<String> absentFindings(SampleAppProcess app) {
		var response = app.get("/actuator/health/safe-defaults");
		if (response.statusCode() != 404) {
			throw new IllegalStateException("GET /actuator/health/safe-defaults with the starter off answered "
					+ response.statusCode() + ": " + response.body());
		}
		return List.of();
	}

	/** Throwables created between two instants, from the cumulative JFR counter. */
	private static long throwablesBetween(Path recording, Instant from, Instant to) {
		if (!Files.isRegularFile(recording)) {
			return -1;
		}
		try {
			long first = -1;
			long last = -1;
			for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
				if (!event.getEventType().getName().equals("jdk.ExceptionStatistics")) {
					continue;
				}
				Instant at = event.getStartTime();
				long throwables = event.getLong("throwables");
				if (!at.isAfter(from)) {
					first = Math.max(first, throwables);
				}
				else if (!at.isAfter(to.plusSeconds(1))) {
					last = Math.max(last, throwables);
				}
			}
			return (first < 0 || last < 0) ? -1 : last - first;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
