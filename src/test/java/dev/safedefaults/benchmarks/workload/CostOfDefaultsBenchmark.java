package dev.safedefaults.benchmarks.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The cost of the defaults on a healthy service (issue 13): the packaged sample app,
 * default profile, under the reference workload, in fresh processes one after the other,
 * for the starter as shipped ("defaults"), each feature switched off in turn (the runtime
 * detector, off by default, switched on), the starter off, and "the limit": the starter
 * with the app's logging off and its configuration parsed once at startup, the cost floor
 * of what the starter touches. The modes run in list order in odd rounds and in reverse
 * order in even rounds, so the drift of a shared machine falls on every mode.
 * <p>
 * Prints, per mode, req/s and CPU per request (the service process's user and system time
 * over the measured window, divided by the answered requests) of every round, and their
 * ratios to "defaults" of the same round: the mean and the band from the lowest to the
 * highest round (the noise band). The defaults' own spread is printed too. Writes an SVG
 * chart of both per mode.
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.CostOfDefaultsBenchmark -Dbenchmark=
 * -Dbenchmark.jvm="-Dcost.svg=../../docs/cost-of-defaults.svg"} (JVM options
 * {@code cost.rounds} (3), {@code cost.threads} (16), {@code cost.warmup-seconds} (15),
 * {@code cost.seconds} (20), {@code cost.svg} (target/cost-of-defaults.svg); the defaults
 * take about 20 minutes on two cores).
 */
public final class CostOfDefaultsBenchmark {

	/** The mode every other is compared with. */
	static final String DEFAULTS = "defaults";

	private CostOfDefaultsBenchmark() {
	}

	/**
	 * One way to run the app.
	 *
	 * @param label the name in the table
	 * @param base the workload mode (starter on or off)
	 * @param jvmArgs JVM arguments added to it (system properties reach Spring too)
	 */
	record CostMode(String label, WorkloadMode base, List<String> jvmArgs) {

		String commandLine() {
			List<String> words = new ArrayList<>(List.of("java"));
			words.addAll(this.base.jvmArgs);
			words.addAll(this.jvmArgs);
			words.add("-jar sample-app.jar");
			return String.join(" ", words);
		}

	}

	static List<CostMode> modes() {
		return List.of(new CostMode(DEFAULTS, WorkloadMode.STARTER, List.of()),
				off("logging", "-Dsafe-defaults.logging.enabled=false"),
				off("config-cache", "-Dsafe-defaults.config-cache.enabled=false"),
				off("jdbc", "-Dsafe-defaults.jdbc.enabled=false"),
				new CostMode("runtime on", WorkloadMode.STARTER, List.of("-Dsafe-defaults.runtime.enabled=true")),
				off("stack-traces", "-Dsafe-defaults.logging.stack-traces.enabled=false"),
				off("feign", "-Dsafe-defaults.feign.enabled=false"),
				off("http-client-timeouts", "-Dsafe-defaults.http-client-timeouts.enabled=false"),
				// Issue 44: the stuck-request watch's filter and map on every request.
				off("stuck-requests", "-Dsafe-defaults.stuck-requests.enabled=false"),
				new CostMode("starter off", WorkloadMode.PLAIN, List.of()), new CostMode("limit", WorkloadMode.STARTER,
						List.of("-Dlogging.level.root=OFF", "-Dsample.rules.pre-parsed=true")));
	}

	/**
	 * Modes that find out where the runtime detector's cost comes from, run only when
	 * named in {@code cost.modes}: a flight recording of {@code jdk.ExceptionStatistics}
	 * started with the JVM (the detector off), and the detector on in a JVM whose flight
	 * recorder was started with it (the detector's stream then joins a running recorder).
	 */
	static List<CostMode> diagnosticModes() {
		String atStart = "-XX:StartFlightRecording:settings=" + exceptionStatistics();
		return List.of(new CostMode("jfr at start", WorkloadMode.STARTER, List.of(atStart)),
				new CostMode("runtime on+jfr", WorkloadMode.STARTER,
						List.of("-Dsafe-defaults.runtime.enabled=true", atStart)),
				// Issue 32: the Log4j2 route's background thread, one piece at a time.
				new CostMode("log4j2 sleep 1ms", WorkloadMode.STARTER,
						List.of("-Dlog4j2.asyncLoggerSleepTimeNs=1000000")),
				new CostMode("log4j2 timeout wait", WorkloadMode.STARTER,
						List.of("-Dlog4j2.asyncLoggerWaitStrategy=Timeout")),
				new CostMode("log4j2 sync loggers", WorkloadMode.STARTER, List
					.of("-Dlog4j2.contextSelector=org.apache.logging.log4j.core.selector.ClassLoaderContextSelector")),
				// Issue 32: the limit's two halves apart.
				new CostMode("app logging off", WorkloadMode.STARTER, List.of("-Dlogging.level.root=OFF")),
				new CostMode("rules pre-parsed", WorkloadMode.STARTER, List.of("-Dsample.rules.pre-parsed=true")));
	}

	/**
	 * The interleaved method ({@code -Dcost.method=interleaved}, see
	 * {@link InterleavedRun}): every mode's fresh process warmed up alone, then the load
	 * moved between them in {@code cost.window-seconds} (3) windows for
	 * {@code cost.cycles} (12) cycles; ratios to "defaults" cycle by cycle. With
	 * {@code -Dcost.method=switch} ({@link InProcessSwitch}) each mode's process instead
	 * measures the app's own logging switched off and on inside itself
	 * ({@code cost.processes} (2) processes per mode, one after the other): the logging
	 * half of "the limit", on one JIT-compiled process.
	 */
	private static Map<String, double[]> interleaved(List<CostMode> modes, int threads, Duration warmup,
			boolean inProcess) throws Exception {
		String jar = System.getProperty("sample-app.jar");
		if (jar == null) {
			throw new IllegalStateException("-Dsample-app.jar is not set: run through the benchmarks profile");
		}
		List<InterleavedRun.Target> targets = new ArrayList<>();
		for (CostMode mode : modes) {
			List<String> jvmArgs = new ArrayList<>(mode.base().jvmArgs);
			jvmArgs.addAll(mode.jvmArgs());
			boolean starterOn = !jvmArgs.contains("-Dsafe-defaults.enabled=false");
			targets.add(new InterleavedRun.Target(mode.label(), Path.of(jar), jvmArgs, mode.base().appArgs,
					(app) -> "starter " + (starterOn ? "on" : "off") + ", GET /actuator/health/safe-defaults answered "
							+ app.get("/actuator/health/safe-defaults").statusCode()));
		}
		Duration window = Duration.ofSeconds(Integer.getInteger("cost.window-seconds", 3));
		int cycles = Integer.getInteger("cost.cycles", 12);
		if (inProcess) {
			return InProcessSwitch.rootLoggerOff("Cost of the app's logging", targets,
					Integer.getInteger("cost.processes", 2), (i) -> "/api/orders/" + (1 + (i % 3)), threads, warmup,
					window, cycles);
		}
		return InterleavedRun.run("Cost of the defaults", targets, (i) -> "/api/orders/" + (1 + (i % 3)), threads,
				warmup, window, cycles);
	}

	/** The modes of the regression gate ({@code -Dcost.method=gate}) unless named. */
	static final String GATE_MODES = "logging-off,config-cache-off,jdbc-off,feign-off,http-client-timeouts-off,"
			+ "stuck-requests-off," + "starter-off,limit";

	/**
	 * The regression gate of issue 32 ({@code -Dcost.method=gate}): the interleaved cost
	 * table over {@code interleaved.sets} sets of processes (the start order rotated from
	 * set to set), then the app's logging switched inside the defaults' own processes
	 * ({@link InProcessSwitch}), then one verdict per goal:
	 * <ul>
	 * <li>no default, and not the starter as a whole, makes the service slower: each mode
	 * "... off" needs at least the defaults' CPU per request within noise (its pooled
	 * ratio plus two standard errors at least 1.0);</li>
	 * <li>the defaults within 5% of the limit's CPU per request: the limit takes away the
	 * app's logging, measured inside one process, and its configuration parsing, which
	 * with the starter is one cache hit per request (tens of nanoseconds,
	 * {@code ParsedConfigCacheBenchmark}); missed only when more than 5% above it by more
	 * than two standard errors over the processes ({@code cost.processes}, 3 for the
	 * gate).</li>
	 * </ul>
	 * The processes' own draw (the A/A row) is printed with the table: the limit's
	 * cross-process ratio is shown, not judged.
	 * @return whether every goal is met
	 */
	private static boolean gate(List<CostMode> modes, int threads, Duration warmup) throws Exception {
		Map<String, double[]> table = interleaved(modes, threads, warmup, false);
		Map<String, double[]> logging = interleaved(List.of(modes.get(0)), threads, warmup, true);
		System.out.printf(Locale.ROOT, "%nGate (issue 32), CPU per request%n");
		boolean met = true;
		for (Map.Entry<String, double[]> row : table.entrySet()) {
			// A default switched off, or the starter (diagnostic modes are not judged).
			if (row.getKey().endsWith(" off")
					&& modes().stream().anyMatch((mode) -> mode.label().equals(row.getKey()))) {
				double[] ratio = row.getValue();
				boolean notDearer = ratio[0] + 2 * ratio[1] >= 1.0;
				met &= notDearer;
				System.out.printf(Locale.ROOT, "  %-26s %.3f (±%.3f) the defaults' %s%n", row.getKey(), ratio[0],
						ratio[1], notDearer ? "met: the default costs nothing beyond noise"
								: "NOT MET: the default makes the service slower");
			}
		}
		double[] off = logging.get(DEFAULTS);
		double overLimit = 1 / off[0];
		double error = off[1] / (off[0] * off[0]);
		// As for the modes off: missed only when the figure is beyond 5% by more than its
		// noise (two standard errors), so that a run at the line is shown as such.
		boolean beyondLimit = overLimit - 2 * error > 1.05;
		met &= !beyondLimit;
		System.out.printf(Locale.ROOT,
				"  %-26s %.3f (±%.3f) the limit's: %s (the app's logging off inside the same process; the "
						+ "configuration parsed once saves one cache hit per request)%n",
				"defaults", overLimit, error, beyondLimit ? "NOT MET: more than 5% above the limit"
						: (overLimit <= 1.05) ? "met: within 5%" : "met within noise: at the 5% line");
		double[] limit = table.get("limit");
		if (limit != null) {
			System.out.printf(Locale.ROOT,
					"  %-26s %.3f (±%.3f), across processes (shown, not judged: read it with the A/A row)%n",
					"limit over defaults", limit[0], limit[1]);
		}
		return met;
	}

	private static String exceptionStatistics() {
		try {
			return WorkloadRun.exceptionStatisticsSettings().toString();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The modes named (comma-separated labels, spaces written as dashes) and the
	 * defaults, which every ratio is taken to.
	 */
	static List<CostMode> selected(List<CostMode> all, String labels) {
		List<String> wanted = Arrays.stream(labels.split(",")).map(CostOfDefaultsBenchmark::dashed).toList();
		for (String label : wanted) {
			if (all.stream().noneMatch((mode) -> dashed(mode.label()).equals(label))) {
				throw new IllegalArgumentException("cost.modes: no mode '" + label + "'; modes are "
						+ all.stream().map((mode) -> dashed(mode.label())).toList());
			}
		}
		return all.stream()
			.filter((mode) -> mode.label().equals(DEFAULTS) || wanted.contains(dashed(mode.label())))
			.toList();
	}

	/** A label as {@code cost.modes} names it: spaces as dashes ({@code starter-off}). */
	private static String dashed(String label) {
		return label.strip().replace(' ', '-');
	}

	private static CostMode off(String feature, String property) {
		return new CostMode(feature + " off", WorkloadMode.STARTER, List.of(property));
	}

	public static void main(String[] args) throws Exception {
		int rounds = Integer.getInteger("cost.rounds", 3);
		int threads = Integer.getInteger("cost.threads", 16);
		Duration warmup = Duration.ofSeconds(Integer.getInteger("cost.warmup-seconds", 15));
		Duration duration = Duration.ofSeconds(Integer.getInteger("cost.seconds", 20));
		Path svg = Path.of(System.getProperty("cost.svg", "target/cost-of-defaults.svg"));
		String labels = System.getProperty("cost.modes", "");
		// The idle window of every run (WorkloadRun.Idle): CPU per second with no
		// traffic.
		System.setProperty("workload.idle-seconds", Integer.toString(Integer.getInteger("cost.idle-seconds", 10)));
		List<CostMode> modes = labels.isBlank() ? modes()
				: selected(Stream.concat(modes().stream(), diagnosticModes().stream()).toList(), labels);
		System.out.printf(Locale.ROOT,
				"Cost of the defaults: %d rounds (order reversed every other round), %d client threads, %ds warm-up, "
						+ "%ds measured per run, fresh process per run; JVM %s%n",
				rounds, threads, warmup.toSeconds(), duration.toSeconds(), System.getProperty("java.version"));
		for (CostMode mode : modes) {
			System.out.printf("  %-16s %s%n", mode.label(), mode.commandLine());
		}
		String method = System.getProperty("cost.method", "sequential");
		if ("gate".equals(method)) {
			if (System.getProperty("interleaved.sets") == null) {
				// The set is the unit of the pooled error: one set cannot judge a gate.
				System.setProperty("interleaved.sets", "3");
			}
			if (System.getProperty("cost.processes") == null) {
				System.setProperty("cost.processes", "3");
			}
			if (!gate(labels.isBlank() ? selected(modes(), GATE_MODES) : modes, threads, warmup)) {
				System.exit(1);
			}
			return;
		}
		if ("interleaved".equals(method) || "switch".equals(method)) {
			interleaved(modes, threads, warmup, "switch".equals(method));
			return;
		}
		Map<CostMode, List<WorkloadRun.Figures>> runs = new LinkedHashMap<>();
		modes.forEach((mode) -> runs.put(mode, new ArrayList<>()));
		for (int round = 1; round <= rounds; round++) {
			List<CostMode> order = new ArrayList<>(modes);
			if (round % 2 == 0) {
				Collections.reverse(order);
			}
			for (CostMode mode : order) {
				WorkloadRun.Figures figures = measure(mode, round, threads, warmup, duration);
				System.out.printf(Locale.ROOT, "round %d %-16s %7.0f req/s %7.3f CPU ms/req  statuses %s%n", round,
						mode.label(), figures.load().perSecond(), figures.cpuMillisPerRequest(),
						figures.load().byStatus());
				runs.get(mode).add(figures);
			}
		}
		List<CostRow> rows = table(runs);
		print(rows);
		printIdle(runs);
		printCpuByThreadGroup(runs);
		CostChart.write(svg, rows, String.format(Locale.ROOT, "%d rounds, %d client threads, %ds measured, JDK %s",
				rounds, threads, duration.toSeconds(), System.getProperty("java.version")));
		System.out.println("chart: " + svg.toAbsolutePath().normalize());
	}

	/**
	 * Measures one run; a process that does not start (on a shared machine, another build
	 * may be unpacking the embedded database's binaries at that moment) is tried twice
	 * more.
	 */
	private static WorkloadRun.Figures measure(CostMode mode, int round, int threads, Duration warmup,
			Duration duration) throws Exception {
		String name = "cost-" + mode.label().replace(' ', '-') + "-" + round;
		for (int attempt = 1;; attempt++) {
			try {
				// No harness recording: a flight recorder in the app would change what is
				// measured.
				return WorkloadRun.measure(mode.base(), mode.jvmArgs(), name, threads, warmup, duration, false, false);
			}
			catch (IllegalStateException ex) {
				if (attempt == 3) {
					throw ex;
				}
				System.out.printf("round %d %s did not start (attempt %d), trying again: %s%n", round, mode.label(),
						attempt, ex.getMessage().lines().findFirst().orElse(""));
			}
		}
	}

	/**
	 * One mode's figures and ratios.
	 *
	 * @param label the mode
	 * @param perSecond req/s of every round
	 * @param cpuPerRequest CPU ms per request of every round
	 * @param rateRatio req/s over the defaults' of the same round, every round
	 * @param cpuRatio CPU per request over the defaults' of the same round, every round
	 */
	record CostRow(String label, double[] perSecond, double[] cpuPerRequest, double[] rateRatio, double[] cpuRatio) {
	}

	static List<CostRow> table(Map<CostMode, List<WorkloadRun.Figures>> runs) {
		List<WorkloadRun.Figures> defaults = runs.entrySet()
			.stream()
			.filter((e) -> e.getKey().label().equals(DEFAULTS))
			.findFirst()
			.orElseThrow()
			.getValue();
		List<CostRow> rows = new ArrayList<>();
		runs.forEach((mode, list) -> {
			double[] rate = values(list, (f) -> f.load().perSecond());
			double[] cpu = values(list, WorkloadRun.Figures::cpuMillisPerRequest);
			double[] rateRatio = new double[list.size()];
			double[] cpuRatio = new double[list.size()];
			for (int i = 0; i < list.size(); i++) {
				rateRatio[i] = rate[i] / defaults.get(i).load().perSecond();
				cpuRatio[i] = cpu[i] / defaults.get(i).cpuMillisPerRequest();
			}
			rows.add(new CostRow(mode.label(), rate, cpu, rateRatio, cpuRatio));
		});
		return rows;
	}

	private static double[] values(List<WorkloadRun.Figures> list, ToDoubleFunction<WorkloadRun.Figures> value) {
		return list.stream().mapToDouble(value).toArray();
	}

	private static void print(List<CostRow> rows) {
		System.out.println();
		System.out.printf("%-16s %8s %24s %10s %26s %10s %18s %18s%n", "mode", "req/s", "req/s per round", "CPU ms/req",
				"CPU ms/req per round", "spread", "req/s vs defaults", "CPU/req vs defaults");
		for (CostRow row : rows) {
			System.out.printf(Locale.ROOT, "%-16s %8.0f %24s %10.3f %26s %9.1f%% %18s %18s%n", row.label(),
					mean(row.perSecond()), join(row.perSecond(), "%.0f"), mean(row.cpuPerRequest()),
					join(row.cpuPerRequest(), "%.3f"), 100 * spread(row.cpuPerRequest()), band(row.rateRatio()),
					band(row.cpuRatio()));
		}
		System.out.println("spread: (highest - lowest) / mean CPU ms/req of the mode's rounds; "
				+ "\"x (a-b)\": mean ratio to defaults of the same round (lowest-highest round)");
	}

	/**
	 * What each mode costs besides its requests, per round and as the mean ratio to the
	 * defaults of the same round: the startup time, the CPU per second with no traffic,
	 * and the resident memory after the load.
	 */
	private static void printIdle(Map<CostMode, List<WorkloadRun.Figures>> runs) {
		List<WorkloadRun.Figures> defaults = runs.entrySet()
			.stream()
			.filter((e) -> e.getKey().label().equals(DEFAULTS))
			.findFirst()
			.orElseThrow()
			.getValue();
		System.out.println();
		System.out.printf("%-20s %22s %18s %28s %18s %22s %18s%n", "mode", "startup s per round", "vs defaults",
				"idle CPU ms/s per round", "vs defaults", "RSS MB per round", "vs defaults");
		runs.forEach((mode, list) -> {
			double[] startup = values(list, (f) -> f.idle().startupSeconds());
			double[] idle = values(list, (f) -> f.idle().cpuMillisPerSecond());
			double[] rss = values(list, (f) -> f.idle().residentKb() / 1024.0);
			System.out.printf(Locale.ROOT, "%-20s %22s %18s %28s %18s %22s %18s%n", mode.label(), join(startup, "%.1f"),
					band(ratios(list, defaults, (f) -> f.idle().startupSeconds())), join(idle, "%.1f"),
					band(ratios(list, defaults, (f) -> f.idle().cpuMillisPerSecond())), join(rss, "%.0f"),
					band(ratios(list, defaults, (f) -> f.idle().residentKb())));
		});
		System.out.println("idle: the process's CPU per second over the idle window after the load, with no request");
	}

	private static double[] ratios(List<WorkloadRun.Figures> list, List<WorkloadRun.Figures> defaults,
			ToDoubleFunction<WorkloadRun.Figures> value) {
		double[] ratios = new double[list.size()];
		for (int i = 0; i < list.size(); i++) {
			ratios[i] = value.applyAsDouble(list.get(i)) / value.applyAsDouble(defaults.get(i));
		}
		return ratios;
	}

	/**
	 * Where each mode's CPU per request goes, by thread group (mean of its rounds), for
	 * the groups that use at least 2% of some mode's CPU: the difference between two
	 * modes shows which threads pay for it (request threads, the log writer, the JIT, the
	 * collector).
	 */
	private static void printCpuByThreadGroup(Map<CostMode, List<WorkloadRun.Figures>> runs) {
		Map<CostMode, Map<String, Double>> perRequest = new LinkedHashMap<>();
		Set<String> shown = new TreeSet<>();
		runs.forEach((mode, list) -> {
			Map<String, Double> micros = new TreeMap<>();
			for (WorkloadRun.Figures figures : list) {
				double requests = Math.max(1, figures.load().requests()) * (double) list.size();
				ThreadCpu.byGroup(figures.threadCpuMillis())
					.forEach((group, millis) -> micros.merge(group, millis * 1000.0 / requests, Double::sum));
			}
			double total = micros.values().stream().mapToDouble(Double::doubleValue).sum();
			micros.forEach((group, value) -> {
				if (value >= 0.02 * total) {
					shown.add(group);
				}
			});
			perRequest.put(mode, micros);
		});
		System.out.println();
		System.out.println("CPU µs per request by thread group (mean of the rounds; groups of >= 2% of some mode):");
		StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-16s", "mode"));
		shown.forEach((group) -> header.append(String.format(Locale.ROOT, " %16s", group)));
		header.append(String.format(Locale.ROOT, " %16s", "other"));
		System.out.println(header);
		perRequest.forEach((mode, micros) -> {
			StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-16s", mode.label()));
			double other = 0;
			for (Map.Entry<String, Double> entry : micros.entrySet()) {
				if (!shown.contains(entry.getKey())) {
					other += entry.getValue();
				}
			}
			shown.forEach(
					(group) -> line.append(String.format(Locale.ROOT, " %16.0f", micros.getOrDefault(group, 0.0))));
			line.append(String.format(Locale.ROOT, " %16.0f", other));
			System.out.println(line);
		});
	}

	static double mean(double[] values) {
		double sum = 0;
		for (double value : values) {
			sum += value;
		}
		return (values.length > 0) ? sum / values.length : Double.NaN;
	}

	static double min(double[] values) {
		double min = Double.POSITIVE_INFINITY;
		for (double value : values) {
			min = Math.min(min, value);
		}
		return min;
	}

	static double max(double[] values) {
		double max = Double.NEGATIVE_INFINITY;
		for (double value : values) {
			max = Math.max(max, value);
		}
		return max;
	}

	private static double spread(double[] values) {
		return (max(values) - min(values)) / mean(values);
	}

	private static String band(double[] ratios) {
		return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", mean(ratios), min(ratios), max(ratios));
	}

	private static String join(double[] values, String format) {
		List<String> parts = new ArrayList<>();
		for (double value : values) {
			parts.add(String.format(Locale.ROOT, format, value));
		}
		return String.join(" / ", parts);
	}

}
