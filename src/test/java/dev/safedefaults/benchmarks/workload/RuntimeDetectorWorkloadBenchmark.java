package dev.safedefaults.benchmarks.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.safedefaults.system.SampleAppProcess;

/**
 * The runtime storm detector (issue 8) on the reference workload.
 * <p>
 * Part 1, its cost: the packaged sample app with the starter on, the detector on (the
 * default) ({@code -Dsafe-defaults.runtime.enabled=true}) and off (the default),
 * alternating on, off, off, on, … so that drift of the shared machine falls on both
 * sides. Prints req/s and CPU per request of every run, the cost of the detector and the
 * noise band (how far the runs of one mode spread), and the CPU of the detector's own
 * threads (its stream reader and the JVM's flight-recorder threads) against the
 * process's: the part of the cost that noise does not hide. The harness starts no flight
 * recording of its own here.
 * <p>
 * Part 1b, side by side: both at the same time, each under half the clients (see
 * {@link #sideBySide}): the ratio of their throughputs, window by window.
 * <p>
 * Part 2, what it sees: the {@code naive} profile (incidents 3 and 8 in the app's code)
 * with the starter on, under the same load from a cold start: when
 * {@code runtime.exception-storm} and {@code runtime.stderr-stack-traces} first appear at
 * {@code /actuator/health/safe-defaults}, when the first one names its top sites, and
 * their messages.
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.RuntimeDetectorWorkloadBenchmark -Dbenchmark=}
 * (JVM options through {@code -Dbenchmark.jvm="-Ddetector.rounds=4"}:
 * {@code detector.rounds}, {@code detector.threads}, {@code detector.warmup-seconds},
 * {@code detector.seconds}, {@code detector.naive-seconds}, {@code detector.pairs},
 * {@code detector.pair-warmup-seconds}, {@code detector.windows},
 * {@code detector.window-seconds}; {@code 0} rounds or pairs leave that part out;
 * {@code -Ddetector.jfr-only=true} makes the side-by-side "on" the same flight recording
 * without the detector).
 */
public final class RuntimeDetectorWorkloadBenchmark {

	private static final String EXCEPTION_STORM = "runtime.exception-storm";

	private static final String STDERR_STACK_TRACES = "runtime.stderr-stack-traces";

	private RuntimeDetectorWorkloadBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = Integer.getInteger("detector.rounds", 3);
		int threads = Integer.getInteger("detector.threads", 16);
		Duration warmup = Duration.ofSeconds(Integer.getInteger("detector.warmup-seconds", 15));
		Duration duration = Duration.ofSeconds(Integer.getInteger("detector.seconds", 20));
		Duration naiveLimit = Duration.ofSeconds(Integer.getInteger("detector.naive-seconds", 45));
		System.out.printf(Locale.ROOT,
				"Runtime detector on the reference workload: %d rounds of on/off (order alternating), %d client "
						+ "threads, %ds warm-up, %ds measured; JVM %s%n",
				rounds, threads, warmup.toSeconds(), duration.toSeconds(), System.getProperty("java.version"));
		Map<String, List<WorkloadRun.Figures>> runs = new LinkedHashMap<>();
		runs.put("on", new ArrayList<>());
		runs.put("off", new ArrayList<>());
		for (int round = 1; round <= rounds; round++) {
			List<String> order = (round % 2 == 1) ? List.of("on", "off") : List.of("off", "on");
			for (String mode : order) {
				List<String> jvmArgs = List.of("-Dsafe-defaults.runtime.enabled=" + mode.equals("on"));
				// No harness recording: "off" must run without any flight recorder.
				WorkloadRun.Figures figures = WorkloadRun.measure(WorkloadMode.STARTER, jvmArgs,
						"detector-" + mode + "-" + round, threads, warmup, duration, false, false);
				System.out.printf(Locale.ROOT,
						"round %d, detector %-3s: %6.0f req/s, %.3f CPU ms/req, detector and JFR threads %d ms of "
								+ "%d ms process CPU, statuses %s, findings %s%n",
						round, mode, figures.load().perSecond(), figures.cpuMillisPerRequest(),
						detectorThreadsMillis(figures), figures.cpuMillis(), figures.load().byStatus(),
						figures.findings());
				runs.get(mode).add(figures);
			}
		}
		if (rounds > 0) {
			printCost(runs);
			System.out.println();
		}
		int pairs = Integer.getInteger("detector.pairs", 2);
		if (pairs > 0) {
			// Two JVMs compiling at once on two cores: their throughput still climbs
			// after 15 s.
			sideBySide(pairs, threads, Duration.ofSeconds(Integer.getInteger("detector.pair-warmup-seconds", 45)),
					Integer.getInteger("detector.windows", 5),
					Duration.ofSeconds(Integer.getInteger("detector.window-seconds", 10)));
			System.out.println();
		}
		naive(threads, naiveLimit);
	}

	/**
	 * Detector on and off at the same time: two apps, each under half the client threads,
	 * so both see the same machine from second to second and share its two cores the way
	 * the scheduler shares them. The ratio of their throughputs is the ratio of their
	 * costs per request; the drift of a shared machine, which moves both, drops out of
	 * it.
	 */
	private static void sideBySide(int pairs, int threads, Duration warmup, int windows, Duration window)
			throws Exception {
		System.out.printf(Locale.ROOT,
				"Side by side: the detector on and off at the same time, %d client threads each, %d pairs of fresh "
						+ "processes (the one started first alternating), then an A/A control (off and off); %ds "
						+ "warm-up, %d windows of %ds%n",
				threads / 2, pairs, warmup.toSeconds(), windows, window.toSeconds());
		List<String> off = List.of("-Dsafe-defaults.runtime.enabled=false");
		List<String> on = List.of("-Dsafe-defaults.runtime.enabled=true");
		if (Boolean.getBoolean("detector.jfr-only")) {
			// The detector's recording without the detector: is a cost the recorder's or
			// ours?
			on = List.of("-Dsafe-defaults.runtime.enabled=false",
					"-XX:StartFlightRecording:settings=" + WorkloadRun.exceptionStatisticsSettings());
			System.out
				.println("'on' is the detector off with a flight recording of jdk.ExceptionStatistics alone: " + on);
		}
		List<Double> ratios = new ArrayList<>();
		for (int pair = 1; pair <= pairs; pair++) {
			ratios
				.addAll(pair("pair " + pair + " on/off", on, off, pair % 2 == 1, threads / 2, warmup, windows, window));
		}
		List<Double> control = pair("control off/off", off, off, true, threads / 2, warmup, windows, window);
		DoubleSummaryStatistics stats = ratios.stream().mapToDouble(Double::doubleValue).summaryStatistics();
		DoubleSummaryStatistics controlStats = control.stream().mapToDouble(Double::doubleValue).summaryStatistics();
		double noise = control.stream().mapToDouble((r) -> Math.abs(1 - r)).max().orElse(0);
		double cost = 1 - stats.getAverage();
		System.out.printf(Locale.ROOT,
				"side by side: on/off %.3f on average (cost %.1f%%, windows %.3f to %.3f); A/A control %.3f on average "
						+ "(windows %.3f to %.3f: noise band ±%.1f%%); goal <= 1%%: %s%n",
				stats.getAverage(), 100 * cost, stats.getMin(), stats.getMax(), controlStats.getAverage(),
				controlStats.getMin(), controlStats.getMax(), 100 * noise,
				(cost <= 0.01) ? "met" : (cost > noise) ? "NOT met (the cost is outside the control's band)"
						: "not resolvable (the cost is inside the control's band)");
	}

	/**
	 * Two apps at the same time under the same load, window by window.
	 * @return the throughput ratio first/second of every window
	 */
	private static List<Double> pair(String label, List<String> firstArgs, List<String> secondArgs,
			boolean firstStartsFirst, int threads, Duration warmup, int windows, Duration window) throws Exception {
		String name = label.replaceAll("[^a-z0-9]+", "-");
		SampleAppProcess early = SampleAppProcess.start(name + "-" + (firstStartsFirst ? "a" : "b"),
				firstStartsFirst ? firstArgs : secondArgs, List.of());
		SampleAppProcess late = SampleAppProcess.start(name + "-" + (firstStartsFirst ? "b" : "a"),
				firstStartsFirst ? secondArgs : firstArgs, List.of());
		try (early; late) {
			SampleAppProcess first = firstStartsFirst ? early : late;
			SampleAppProcess second = firstStartsFirst ? late : early;
			if (!first.isAlive() || !second.isAlive()) {
				throw new IllegalStateException("a side did not start:\n" + first.log() + "\n" + second.log());
			}
			LoadDriver firstLoad = new LoadDriver();
			LoadDriver secondLoad = new LoadDriver();
			concurrently(firstLoad, first, secondLoad, second, threads, warmup);
			List<Double> ratios = new ArrayList<>();
			Map<String, Long> firstCpu = ThreadCpu.millisByName(first.handle());
			Map<String, Long> secondCpu = ThreadCpu.millisByName(second.handle());
			long[] requests = new long[2];
			for (int w = 1; w <= windows; w++) {
				LoadDriver.Result[] results = concurrently(firstLoad, first, secondLoad, second, threads, window);
				double ratio = results[0].perSecond() / results[1].perSecond();
				ratios.add(ratio);
				requests[0] += results[0].requests();
				requests[1] += results[1].requests();
				System.out.printf(Locale.ROOT, "%s (%s started first), window %d: %.0f and %.0f req/s, ratio %.3f%n",
						label, firstStartsFirst ? "the former" : "the latter", w, results[0].perSecond(),
						results[1].perSecond(), ratio);
			}
			printCpuByThread(label, ThreadCpu.between(firstCpu, ThreadCpu.millisByName(first.handle())), requests[0],
					ThreadCpu.between(secondCpu, ThreadCpu.millisByName(second.handle())), requests[1]);
			return ratios;
		}
	}

	/**
	 * Where each side's CPU went per request, by thread group (names without their
	 * numbers).
	 */
	private static void printCpuByThread(String label, Map<String, Long> first, long firstRequests,
			Map<String, Long> second, long secondRequests) {
		Map<String, double[]> groups = new java.util.TreeMap<>();
		first.forEach((name, millis) -> groups.computeIfAbsent(ThreadCpu.group(name), (g) -> new double[2])[0] += millis
				* 1000.0 / Math.max(1, firstRequests));
		second
			.forEach((name, millis) -> groups.computeIfAbsent(ThreadCpu.group(name), (g) -> new double[2])[1] += millis
					* 1000.0 / Math.max(1, secondRequests));
		StringBuilder line = new StringBuilder(label + ", CPU µs per request by thread group (first / second):");
		groups.entrySet()
			.stream()
			.filter((e) -> e.getValue()[0] + e.getValue()[1] >= 20)
			.sorted((a, b) -> Double.compare(b.getValue()[0] + b.getValue()[1], a.getValue()[0] + a.getValue()[1]))
			.forEach((e) -> line
				.append(String.format(Locale.ROOT, " %s %.0f/%.0f;", e.getKey(), e.getValue()[0], e.getValue()[1])));
		System.out.println(line);
	}

	private static LoadDriver.Result[] concurrently(LoadDriver first, SampleAppProcess firstApp, LoadDriver second,
			SampleAppProcess secondApp, int threads, Duration duration) throws Exception {
		// Own threads: the common pool has one worker on a 2-core machine and would run
		// them in turn.
		ExecutorService both = Executors.newFixedThreadPool(2);
		try {
			Future<LoadDriver.Result> a = both.submit(() -> load(first, firstApp, threads, duration));
			Future<LoadDriver.Result> b = both.submit(() -> load(second, secondApp, threads, duration));
			return new LoadDriver.Result[] { a.get(), b.get() };
		}
		finally {
			both.shutdown();
		}
	}

	private static LoadDriver.Result load(LoadDriver driver, SampleAppProcess app, int threads, Duration duration) {
		try {
			return driver.run(app.baseUrl(), threads, duration, Long.MAX_VALUE);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void printCost(Map<String, List<WorkloadRun.Figures>> runs) {
		System.out.println();
		System.out.printf("%-9s %9s %28s %9s %12s %9s%n", "detector", "req/s", "req/s per run", "spread", "CPU ms/req",
				"p99 ms");
		Map<String, Double> rate = new LinkedHashMap<>();
		Map<String, Double> cpu = new LinkedHashMap<>();
		Map<String, Double> spread = new LinkedHashMap<>();
		runs.forEach((mode, list) -> {
			double[] perSecond = list.stream().mapToDouble((f) -> f.load().perSecond()).toArray();
			DoubleSummaryStatistics stats = Arrays.stream(perSecond).summaryStatistics();
			double mean = stats.getAverage();
			double band = (stats.getMax() - stats.getMin()) / mean;
			rate.put(mode, mean);
			spread.put(mode, band);
			cpu.put(mode, list.stream().mapToDouble(WorkloadRun.Figures::cpuMillisPerRequest).average().orElse(0));
			StringBuilder perRun = new StringBuilder();
			for (double value : perSecond) {
				perRun.append((perRun.length() > 0) ? " / " : "").append(String.format(Locale.ROOT, "%.0f", value));
			}
			System.out.printf(Locale.ROOT, "%-9s %9.0f %28s %8.1f%% %12.3f %9.2f%n", mode, mean, perRun, 100 * band,
					cpu.get(mode),
					list.stream().mapToDouble((f) -> f.load().percentileMicros(0.99) / 1000.0).average().orElse(0));
		});
		long detectorMillis = runs.get("on")
			.stream()
			.mapToLong(RuntimeDetectorWorkloadBenchmark::detectorThreadsMillis)
			.sum();
		long processMillis = runs.get("on").stream().mapToLong(WorkloadRun.Figures::cpuMillis).sum();
		System.out.printf(Locale.ROOT,
				"the detector's own threads (its stream reader and the JVM's JFR threads) used %d ms of %d ms process "
						+ "CPU in the 'on' runs: %.2f%%%n",
				detectorMillis, processMillis, 100.0 * detectorMillis / Math.max(1, processMillis));
		double cost = 1 - rate.get("on") / rate.get("off");
		double cpuCost = cpu.get("on") / cpu.get("off") - 1;
		double band = Math.max(spread.get("on"), spread.get("off"));
		double ownShare = detectorMillis / (double) Math.max(1, processMillis);
		System.out.printf(Locale.ROOT,
				"throughput: on/off = %.3f (cost %.1f%%), CPU per request %+.1f%%; noise band (max-min over mean of "
						+ "one mode's runs): %.1f%%%n",
				rate.get("on") / rate.get("off"), 100 * cost, 100 * cpuCost, 100 * band);
		String byThroughput = (band > 0.01 && Math.abs(cost) <= band)
				? "not resolvable by throughput on this machine (the difference is inside a noise band wider than 1%)"
				: (cost <= 0.01) ? "met" : "NOT met";
		System.out.printf(Locale.ROOT,
				"goal <= 1%%: by throughput %s; by the detector's own threads (%.2f%% of the " + "process's CPU) %s%n",
				byThroughput, 100 * ownShare, (ownShare <= 0.01) ? "met" : "NOT met");
	}

	/** CPU of the detector's reading thread and the JVM's flight-recorder threads. */
	private static long detectorThreadsMillis(WorkloadRun.Figures figures) {
		return ThreadCpu.millisOf(figures.threadCpuMillis(), "safe-defaults-r")
				+ ThreadCpu.millisOf(figures.threadCpuMillis(), "JFR ");
	}

	/**
	 * The naive profile from a cold start under load: when the two runtime findings
	 * appear and what they say.
	 */
	private static void naive(int threads, Duration limit) throws Exception {
		System.out.printf("Naive profile, starter on, %d client threads from a cold start (up to %ds):%n", threads,
				limit.toSeconds());
		try (SampleAppProcess app = SampleAppProcess.start("detector-naive",
				List.of("-Dsafe-defaults.runtime.enabled=true"), List.of("--spring.profiles.active=naive"))) {
			if (!app.isAlive()) {
				throw new IllegalStateException("naive did not start:\n" + app.log());
			}
			LoadDriver driver = new LoadDriver();
			long start = System.nanoTime();
			CompletableFuture<LoadDriver.Result> load = CompletableFuture
				.supplyAsync(() -> load(driver, app, threads, limit));
			Map<String, Double> firstSeen = new LinkedHashMap<>();
			double sitesNamedAt = Double.NaN;
			Map<String, String> messages = Map.of();
			while (!load.isDone()) {
				messages = app.findingMessages();
				double at = (System.nanoTime() - start) / 1e9;
				for (String id : List.of(EXCEPTION_STORM, STDERR_STACK_TRACES)) {
					if (messages.containsKey(id)) {
						firstSeen.putIfAbsent(id, at);
					}
				}
				String storm = messages.get(EXCEPTION_STORM);
				if (Double.isNaN(sitesNamedAt) && storm != null && storm.contains("Top sites: ")
						&& !storm.contains("Top sites: being recorded") && !storm.contains("Top sites: not recorded")) {
					sitesNamedAt = at;
				}
				if (firstSeen.size() == 2 && !Double.isNaN(sitesNamedAt)) {
					break;
				}
				Thread.sleep(250);
			}
			LoadDriver.Result result = load.get();
			System.out.printf(Locale.ROOT, "  load: %.0f req/s over the run, statuses %s%n", result.perSecond(),
					result.byStatus());
			for (String id : List.of(EXCEPTION_STORM, STDERR_STACK_TRACES)) {
				Double at = firstSeen.get(id);
				System.out.printf(Locale.ROOT, "  %-28s %s%n", id, (at == null) ? "NOT seen"
						: String.format(Locale.ROOT, "first seen %.1f s after the load began", at));
			}
			System.out.printf(Locale.ROOT, "  top sites named %s%n", Double.isNaN(sitesNamedAt) ? "NOT within the run"
					: String.format(Locale.ROOT, "%.1f s after the load began", sitesNamedAt));
			boolean namesCode = messages.getOrDefault(EXCEPTION_STORM, "").contains("NaiveHabits")
					&& messages.getOrDefault(STDERR_STACK_TRACES, "").contains("ClassNotFoundException");
			System.out.printf("  goal (both within 30 s, naming NaiveHabits and ClassNotFoundException): %s%n",
					(namesCode && firstSeen.values().stream().allMatch((t) -> t <= 30) && firstSeen.size() == 2
							&& sitesNamedAt <= 30) ? "met" : "NOT met");
			messages.forEach((id, message) -> {
				if (id.startsWith("runtime.")) {
					System.out.printf("  %s: %s%n", id, message);
				}
			});
		}
	}

}
