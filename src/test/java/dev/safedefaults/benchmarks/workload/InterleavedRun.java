package dev.safedefaults.benchmarks.workload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongFunction;

import dev.safedefaults.system.SampleAppProcess;

/**
 * The interleaved method of the cost benchmarks (issue 32): the machine's speed drifts by
 * more than the differences sought between runs minutes apart, so every mode's fresh
 * process is started and warmed up (each in turn, alone under load), and then the load
 * moves from one process to the next in short windows, the modes in order and then in
 * reverse (A B C C B A ...), for a number of cycles. Only one process is under load at a
 * time; the others idle (about 1% of a core each). Each window counts the loaded
 * process's CPU and answered requests; a mode's ratio to the first mode is taken cycle by
 * cycle, from windows seconds apart, and printed as the mean with its band (lowest to
 * highest cycle) and the standard error of the mean, with the CPU per request by thread
 * group over all windows. A second process of the first mode runs as a mode of its own
 * (the A/A control): two processes of one mode differed by up to 9% (a setting that
 * cannot matter on the workload came out at 0.906, standard error 0.014), more than the
 * cycles' standard error says, so a difference is read against that row.
 */
final class InterleavedRun {

	/**
	 * One mode: a fresh process of a fat jar.
	 *
	 * @param label its name in the table (the first target is the baseline)
	 * @param jar the fat jar
	 * @param jvmArgs JVM arguments
	 * @param appArgs application arguments
	 * @param check what the started process says it runs, printed with the table (it
	 * throws when the process is not what the mode claims)
	 */
	record Target(String label, Path jar, List<String> jvmArgs, List<String> appArgs,
			Function<SampleAppProcess, String> check) {
	}

	private InterleavedRun() {
	}

	/**
	 * Runs {@code interleaved.sets} (1) independent sets of processes, each as described
	 * above, prints each set's table and, for more than one set, the ratios pooled over
	 * the sets: a process's JIT makes a lasting draw of its own (9-11% between two
	 * processes of one mode), which the cycles of one set cannot average out, so the set
	 * is the unit of the pooled standard error. Returns, per mode, the CPU-per-request
	 * ratio's mean over the sets and its standard error (with one set: over its cycles,
	 * which understates the error). Set {@code k} of {@code n} starts (and warms up, and
	 * cycles through) the processes in the list order (the A/A control last) rotated by
	 * {@code (k - 1) * processes / n} places: the process started first was the slowest
	 * in 5 of 7 sets of issue 32, so over as many sets as processes every mode takes
	 * every place in the start order once, and over fewer sets places spread evenly. The
	 * warm-up ({@code interleaved.warmup}) is {@code alone} by default: each process
	 * under load alone, one after the other; {@code turns} loads them in turns, window by
	 * window, for the warm-up time each, so that the first started does not idle longest
	 * before the cycles (it made no difference to the A/A spread in one run of three
	 * sets).
	 */
	static Map<String, double[]> run(String title, List<Target> modes, LongFunction<String> pathOf, int threads,
			Duration warmup, Duration window, int cycles) throws Exception {
		int sets = Integer.getInteger("interleaved.sets", 1);
		Map<String, List<Double>> cpuBySet = new LinkedHashMap<>();
		Map<String, List<Double>> rateBySet = new LinkedHashMap<>();
		Map<String, List<double[]>> idleBySet = new LinkedHashMap<>();
		for (int set = 1; set <= sets; set++) {
			if (sets > 1) {
				System.out.printf(Locale.ROOT, "set %d of %d%n", set, sets);
			}
			Map<String, double[]> idle = new LinkedHashMap<>();
			Map<String, double[][]> ratios = runSet(idle, title + ((sets > 1) ? ", set " + set + " of " + sets : ""),
					modes, set - 1, sets, pathOf, threads, warmup, window, cycles);
			idle.forEach((label, figures) -> idleBySet.computeIfAbsent(label, (l) -> new ArrayList<>()).add(figures));
			ratios.forEach((label, cpuAndRate) -> {
				cpuBySet.computeIfAbsent(label, (l) -> new ArrayList<>())
					.add(Arrays.stream(cpuAndRate[0]).average().orElse(Double.NaN));
				rateBySet.computeIfAbsent(label, (l) -> new ArrayList<>())
					.add(Arrays.stream(cpuAndRate[1]).average().orElse(Double.NaN));
			});
		}
		if (sets > 1) {
			System.out.printf(Locale.ROOT,
					"%n%s, pooled over %d independent sets of processes (each set's mean ratio one value; band "
							+ "lowest-highest set, ± the standard error over the sets)%n",
					title, sets);
			System.out.printf(Locale.ROOT, "%-34s %-34s %-34s%n", "mode", "CPU/req", "req/s");
			cpuBySet.forEach((label, cpu) -> System.out.printf(Locale.ROOT, "%-34s %-34s %-34s%n", label,
					summary(cpu.stream().mapToDouble(Double::doubleValue).toArray()),
					summary(rateBySet.get(label).stream().mapToDouble(Double::doubleValue).toArray())));
			printIdle("Startup, idle CPU and resident memory, mean over the sets",
					idleBySet.entrySet()
						.stream()
						.collect(LinkedHashMap::new, (map, entry) -> map.put(entry.getKey(), mean(entry.getValue())),
								Map::putAll));
		}
		Map<String, double[]> pooled = new LinkedHashMap<>();
		cpuBySet.forEach((label, cpu) -> pooled.put(label,
				meanAndError(cpu.stream().mapToDouble(Double::doubleValue).toArray())));
		return pooled;
	}

	/**
	 * The mean of some ratios and the standard error of that mean.
	 */
	static double[] meanAndError(double[] ratios) {
		double mean = Arrays.stream(ratios).average().orElse(Double.NaN);
		double variance = Arrays.stream(ratios).map((r) -> (r - mean) * (r - mean)).sum()
				/ Math.max(1, ratios.length - 1);
		return new double[] { mean, Math.sqrt(variance / ratios.length) };
	}

	private static double[] mean(List<double[]> rows) {
		double[] mean = new double[rows.get(0).length];
		for (double[] row : rows) {
			for (int i = 0; i < mean.length; i++) {
				mean[i] += row[i] / rows.size();
			}
		}
		return mean;
	}

	/**
	 * Prints, per mode, {startup seconds, idle CPU ms per second, resident MB}.
	 */
	private static void printIdle(String title, Map<String, double[]> idle) {
		System.out.printf(Locale.ROOT, "%n%s%n%-34s %10s %16s %8s%n", title, "mode", "startup s", "idle CPU ms/s",
				"RSS MB");
		idle.forEach((label, figures) -> System.out.printf(Locale.ROOT, "%-34s %10.1f %16.1f %8.0f%n", label,
				figures[0], figures[1], figures[2]));
	}

	/**
	 * One set of fresh processes, printed.
	 * @return per mode, its CPU-per-request ratios and its req/s ratios, cycle by cycle
	 */
	private static Map<String, double[][]> runSet(Map<String, double[]> idle, String title, List<Target> modes,
			int setIndex, int sets, LongFunction<String> pathOf, int threads, Duration warmup, Duration window,
			int cycles) throws Exception {
		// The A/A control: a second process of the baseline, listed last (started last in
		// the first set, the list rotated in the others). Every ratio is taken to the
		// mean of the two in the same cycle,
		// and the A/A row (the second over the first) shows how far two processes of one
		// mode stay apart: a process's JIT makes its own lasting draw, and the first
		// process started ran ~10% slower than the others in one run.
		Target baseline = modes.get(0);
		List<Target> targets = new ArrayList<>(modes);
		targets.add(new Target(baseline.label() + " (A/A)", baseline.jar(), baseline.jvmArgs(), baseline.appArgs(),
				baseline.check()));
		List<Target> startOrder = new ArrayList<>(targets);
		// The A/A control is one of the targets: the rotation spreads it too.
		Collections.rotate(startOrder, -(setIndex * targets.size() / sets));
		System.out.printf(Locale.ROOT, "start order: %s%n",
				String.join(", ", startOrder.stream().map(Target::label).toList()));
		Map<String, SampleAppProcess> apps = new LinkedHashMap<>();
		Map<String, LoadDriver> drivers = new LinkedHashMap<>();
		Map<String, String> checks = new LinkedHashMap<>();
		// label -> per cycle {cpu nanos, requests, seconds}
		Map<String, List<double[]>> perCycle = new LinkedHashMap<>();
		Map<String, Map<String, Long>> threadMillis = new LinkedHashMap<>();
		try {
			Map<String, Double> startup = new LinkedHashMap<>();
			for (Target target : startOrder) {
				long launched = System.nanoTime();
				SampleAppProcess app = SampleAppProcess.startJar(target.jar(),
						"interleaved-" + target.label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-"),
						target.jvmArgs(), target.appArgs());
				startup.put(target.label(), (System.nanoTime() - launched) / 1e9);
				apps.put(target.label(), app);
				if (!app.isAlive()) {
					throw new IllegalStateException(target.label() + " did not start:\n" + app.log());
				}
				checks.put(target.label(), target.check().apply(app));
				drivers.put(target.label(), new LoadDriver());
			}
			if ("turns".equals(System.getProperty("interleaved.warmup", "alone"))) {
				// Every process warmed up in turns, window by window like the cycles, so
				// that none idles longer than the others before the cycles. Tried on
				// issue 35's page: the A/A rows 1.00, 1.00 and 1.09 against 1.09, 1.01
				// and 1.01 warmed up alone, so not the default.
				long turns = Math.max(1, warmup.toSeconds() / window.toSeconds());
				System.out.printf(Locale.ROOT, "warm-up in turns: %d windows of %d s each%n", turns,
						window.toSeconds());
				for (long turn = 0; turn < turns; turn++) {
					List<Target> order = new ArrayList<>(startOrder);
					if (turn % 2 == 1) {
						Collections.reverse(order);
					}
					for (Target target : order) {
						drivers.get(target.label())
							.run(apps.get(target.label()).baseUrl(), threads, window, Long.MAX_VALUE, pathOf);
					}
				}
			}
			else {
				for (Target target : startOrder) {
					System.out.printf(Locale.ROOT, "warm-up, %s%n", target.label());
					drivers.get(target.label())
						.run(apps.get(target.label()).baseUrl(), threads, warmup, Long.MAX_VALUE, pathOf);
				}
			}
			for (int cycle = 1; cycle <= cycles; cycle++) {
				List<Target> order = new ArrayList<>(startOrder);
				if (cycle % 2 == 0) {
					Collections.reverse(order);
				}
				for (Target target : order) {
					perCycle.computeIfAbsent(target.label(), (m) -> new ArrayList<>())
						.add(measureWindow(target.label(), apps.get(target.label()), drivers.get(target.label()),
								threads, window, pathOf,
								threadMillis.computeIfAbsent(target.label(), (m) -> new TreeMap<>())));
				}
				System.out.printf(Locale.ROOT, "cycle %d of %d%n", cycle, cycles);
			}
			// Every process idle at once: what each costs with no traffic, after the
			// load's last work (the compiler's queue, the log writer) has ended.
			int idleSeconds = Integer.getInteger("interleaved.idle-seconds", 10);
			Thread.sleep(WorkloadRun.IDLE_SETTLE_SECONDS * 1000L);
			Map<String, Duration> cpuBefore = new LinkedHashMap<>();
			apps.forEach(
					(label, app) -> cpuBefore.put(label, app.handle().info().totalCpuDuration().orElse(Duration.ZERO)));
			long from = System.nanoTime();
			Thread.sleep(idleSeconds * 1000L);
			double seconds = (System.nanoTime() - from) / 1e9;
			for (Target target : targets) {
				SampleAppProcess app = apps.get(target.label());
				Duration cpu = app.handle()
					.info()
					.totalCpuDuration()
					.orElse(Duration.ZERO)
					.minus(cpuBefore.get(target.label()));
				idle.put(target.label(), new double[] { startup.get(target.label()), cpu.toNanos() / 1e6 / seconds,
						WorkloadRun.residentKb(app) / 1024.0 });
			}
		}
		finally {
			apps.values().forEach(SampleAppProcess::close);
		}
		Map<String, double[][]> ratios = print(title, targets, perCycle, threadMillis, checks, threads, warmup, window,
				cycles);
		printIdle("Startup (launch to first answer), idle CPU (every process idle at once, "
				+ Integer.getInteger("interleaved.idle-seconds", 10) + " s after the last window) and resident memory",
				idle);
		return ratios;
	}

	private static Map<String, double[][]> print(String title, List<Target> targets,
			Map<String, List<double[]>> perCycle, Map<String, Map<String, Long>> threadMillis,
			Map<String, String> checks, int threads, Duration warmup, Duration window, int cycles) {
		Map<String, double[][]> ratios = new LinkedHashMap<>();
		String baselineLabel = targets.get(0).label();
		System.out.println();
		System.out.printf(Locale.ROOT,
				"%s, interleaved: %d processes started and warmed up (%d s each, alone), then %d cycles of %d s "
						+ "windows (modes in order, then reversed), %d client threads, JDK %s%n",
				title, targets.size(), warmup.toSeconds(), cycles, window.toSeconds(), threads, Runtime.version());
		checks.forEach((mode, check) -> System.out.println("  " + mode + ": " + check));
		System.out.printf(Locale.ROOT,
				"%nRatios to the mean of the two %s processes of the same cycle; the A/A row is the second %s "
						+ "process over the first.%n",
				baselineLabel, baselineLabel);
		System.out.printf(Locale.ROOT, "%-34s %8s %10s %-34s %-34s%n", "mode", "req/s", "CPU µs/req",
				"CPU/req (band, SE)", "req/s (band, SE)");
		List<double[]> first = perCycle.get(baselineLabel);
		List<double[]> second = perCycle.get(baselineLabel + " (A/A)");
		for (Target target : targets) {
			boolean control = target.label().equals(baselineLabel + " (A/A)");
			List<double[]> own = perCycle.get(target.label());
			double cpu = own.stream().mapToDouble((c) -> c[0]).sum();
			double requests = own.stream().mapToDouble((c) -> c[1]).sum();
			double seconds = own.stream().mapToDouble((c) -> c[2]).sum();
			double[] cpuRatios = new double[own.size()];
			double[] rateRatios = new double[own.size()];
			for (int i = 0; i < own.size(); i++) {
				double[] mine = own.get(i);
				double[] a = first.get(i);
				double[] b = second.get(i);
				// The control against the first; every other mode against the mean of
				// both.
				double baseCpu = control ? a[0] / a[1] : (a[0] / a[1] + b[0] / b[1]) / 2;
				double baseRate = control ? a[1] / a[2] : (a[1] / a[2] + b[1] / b[2]) / 2;
				cpuRatios[i] = (mine[0] / mine[1]) / baseCpu;
				rateRatios[i] = (mine[1] / mine[2]) / baseRate;
			}
			System.out.printf(Locale.ROOT, "%-34s %8.0f %10.0f %-34s %-34s%n", target.label(), requests / seconds,
					cpu / 1e3 / requests, summary(cpuRatios), summary(rateRatios));
			ratios.put(target.label(), new double[][] { cpuRatios, rateRatios });
		}
		Map<String, Double> requests = new LinkedHashMap<>();
		for (Target target : targets) {
			requests.put(target.label(), perCycle.get(target.label()).stream().mapToDouble((c) -> c[1]).sum());
		}
		printThreadGroups(threadMillis, requests);
		return ratios;
	}

	/**
	 * One measured window of load on one process.
	 * @param threadGroups where its threads' CPU is added, in milliseconds by group
	 * @return {CPU nanoseconds, answered requests, seconds}
	 * @throws IllegalStateException on an answer other than 200
	 */
	static double[] measureWindow(String label, SampleAppProcess app, LoadDriver driver, int threads, Duration window,
			LongFunction<String> pathOf, Map<String, Long> threadGroups) throws InterruptedException {
		Duration before = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
		Map<String, Long> threadsBefore = ThreadCpu.millisByName(app.handle());
		LoadDriver.Result load = driver.run(app.baseUrl(), threads, window, Long.MAX_VALUE, pathOf);
		Duration after = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
		ThreadCpu.between(threadsBefore, ThreadCpu.millisByName(app.handle()))
			.forEach((name, millis) -> threadGroups.merge(ThreadCpu.group(name), millis, Long::sum));
		if (load.requests() != load.answered(200)) {
			throw new IllegalStateException(label + ": answers other than 200: " + load.byStatus());
		}
		return new double[] { after.minus(before).toNanos(), load.requests(), load.seconds() };
	}

	/**
	 * Prints CPU per request by thread group, per mode.
	 * @param millisByMode per mode, its threads' CPU in milliseconds by group
	 * @param requestsByMode per mode, the requests answered in the same windows
	 */
	static void printThreadGroups(Map<String, Map<String, Long>> millisByMode, Map<String, Double> requestsByMode) {
		System.out.printf(Locale.ROOT, "%nCPU µs per request by thread group, over all windows (groups of >= 2%% "
				+ "of some mode's CPU, 'other' the rest)%n");
		Map<String, Map<String, Double>> micros = new LinkedHashMap<>();
		Map<String, Double> totals = new LinkedHashMap<>();
		requestsByMode.forEach((mode, requests) -> {
			Map<String, Double> groups = new TreeMap<>();
			millisByMode.getOrDefault(mode, Map.of())
				.forEach((group, millis) -> groups.put(group, millis * 1000.0 / requests));
			micros.put(mode, groups);
			totals.put(mode, groups.values().stream().mapToDouble(Double::doubleValue).sum());
		});
		ThreadCpu.printMicrosPerRequest(micros, totals);
	}

	/** Mean, band (lowest-highest) and standard error of the mean of some ratios. */
	static String summary(double[] ratios) {
		double[] meanAndError = meanAndError(ratios);
		double min = Arrays.stream(ratios).min().orElse(Double.NaN);
		double max = Arrays.stream(ratios).max().orElse(Double.NaN);
		return String.format(Locale.ROOT, "%.3f (%.2f-%.2f, ±%.3f)", meanAndError[0], min, max, meanAndError[1]);
	}

}
