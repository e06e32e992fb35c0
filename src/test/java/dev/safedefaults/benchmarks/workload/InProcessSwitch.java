package dev.safedefaults.benchmarks.workload;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.system.SampleAppProcess;

/**
 * One setting switched inside one process (issue 32): where a setting can be changed at
 * run time, its cost is measured on the same process, so on the same JIT-compiled code,
 * which the interleaved method cannot give (two processes of one mode stay up to 10-25%
 * apart, the A/A rows of {@link InterleavedRun}). Each process is started alone, warmed
 * up under load with the setting as configured, then measured in short windows, as
 * configured and switched in turn (A B B A ...); the ratio is taken cycle by cycle, and
 * each process's mean is one value of the pooled figure.
 * <p>
 * The switch is the root logger's level through Boot's actuator ({@code loggers}
 * endpoint): the application's own logging on (as configured) or off, which is the
 * logging half of the cost benchmark's "limit".
 */
final class InProcessSwitch {

	private static final Pattern ROOT_LEVEL = Pattern
		.compile("\"ROOT\"\\s*:\\s*\\{[^}]*\"effectiveLevel\"\\s*:\\s*\"([A-Z]+)\"");

	private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private InProcessSwitch() {
	}

	/**
	 * The JVM argument that exposes the actuator endpoints the switch needs, with those
	 * the sample app exposes itself.
	 */
	static final String EXPOSE_LOGGERS = "-Dmanagement.endpoints.web.exposure.include="
			+ "health,info,metrics,safedefaults,loggers";

	/**
	 * Runs {@code processes} fresh processes of each target, one after the other, and
	 * prints each process's ratios and the pooled ones.
	 * @return per mode, the CPU-per-request ratio (logging off over on) pooled over its
	 * processes, with its standard error
	 */
	static Map<String, double[]> rootLoggerOff(String title, List<InterleavedRun.Target> targets, int processes,
			LongFunction<String> pathOf, int threads, Duration warmup, Duration window, int cycles) throws Exception {
		System.out.printf(Locale.ROOT,
				"%s: the app's logging switched off and on inside one process (root logger OFF through the "
						+ "actuator), %d process(es) per mode one after the other, each warmed up alone for %d s, then "
						+ "%d cycles of %d s windows (as configured, off, off, as configured, ...), %d client threads, "
						+ "JDK %s%n",
				title, processes, warmup.toSeconds(), cycles, window.toSeconds(), threads, Runtime.version());
		Map<String, List<Double>> cpuByProcess = new LinkedHashMap<>();
		Map<String, List<Double>> rateByProcess = new LinkedHashMap<>();
		for (int round = 1; round <= processes; round++) {
			for (InterleavedRun.Target target : targets) {
				double[][] ratios = runProcess(target, round, pathOf, threads, warmup, window, cycles);
				cpuByProcess.computeIfAbsent(target.label(), (l) -> new ArrayList<>())
					.add(InterleavedRun.meanAndError(ratios[0])[0]);
				rateByProcess.computeIfAbsent(target.label(), (l) -> new ArrayList<>())
					.add(InterleavedRun.meanAndError(ratios[1])[0]);
			}
		}
		System.out.printf(Locale.ROOT,
				"%n%s: the app's logging off over on, pooled over the processes (each process's mean ratio one "
						+ "value; band lowest-highest process, ± the standard error over the processes)%n",
				title);
		System.out.printf(Locale.ROOT, "%-34s %-34s %-34s%n", "mode", "CPU/req off ÷ on", "req/s off ÷ on");
		cpuByProcess.forEach((label, cpu) -> System.out.printf(Locale.ROOT, "%-34s %-34s %-34s%n", label,
				InterleavedRun.summary(cpu.stream().mapToDouble(Double::doubleValue).toArray()),
				InterleavedRun.summary(rateByProcess.get(label).stream().mapToDouble(Double::doubleValue).toArray())));
		Map<String, double[]> pooled = new LinkedHashMap<>();
		cpuByProcess.forEach((label, cpu) -> pooled.put(label,
				InterleavedRun.meanAndError(cpu.stream().mapToDouble(Double::doubleValue).toArray())));
		return pooled;
	}

	/**
	 * One process: warmed up as configured, then the windows.
	 * @return the CPU-per-request ratios (off over on) and the req/s ratios, cycle by
	 * cycle
	 */
	private static double[][] runProcess(InterleavedRun.Target target, int round, LongFunction<String> pathOf,
			int threads, Duration warmup, Duration window, int cycles) throws Exception {
		List<String> jvmArgs = new ArrayList<>(target.jvmArgs());
		jvmArgs.add(EXPOSE_LOGGERS);
		String name = "switch-" + target.label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-") + "-" + round;
		double[] cpuRatios = new double[cycles];
		double[] rateRatios = new double[cycles];
		Map<Boolean, double[]> totals = new TreeMap<>();
		Map<String, Map<String, Long>> threadMillis = new TreeMap<>();
		try (SampleAppProcess app = SampleAppProcess.startJar(target.jar(), name, jvmArgs, target.appArgs())) {
			if (!app.isAlive()) {
				throw new IllegalStateException(target.label() + " did not start:\n" + app.log());
			}
			String check = target.check().apply(app);
			String configured = rootLevel(app);
			System.out.printf(Locale.ROOT, "%s, process %d: %s; root logger %s%n", target.label(), round, check,
					configured);
			LoadDriver driver = new LoadDriver();
			driver.run(app.baseUrl(), threads, warmup, Long.MAX_VALUE, pathOf);
			for (int cycle = 0; cycle < cycles; cycle++) {
				double[][] figures = new double[2][];
				boolean[] order = (cycle % 2 == 0) ? new boolean[] { false, true } : new boolean[] { true, false };
				for (boolean off : order) {
					setRootLevel(app, off ? "OFF" : configured);
					double[] measured = InterleavedRun.measureWindow(target.label(), app, driver, threads, window,
							pathOf, threadMillis.computeIfAbsent(label(off), (o) -> new TreeMap<>()));
					figures[off ? 1 : 0] = measured;
					double[] total = totals.computeIfAbsent(off, (o) -> new double[3]);
					for (int i = 0; i < 3; i++) {
						total[i] += measured[i];
					}
				}
				cpuRatios[cycle] = (figures[1][0] / figures[1][1]) / (figures[0][0] / figures[0][1]);
				rateRatios[cycle] = (figures[1][1] / figures[1][2]) / (figures[0][1] / figures[0][2]);
			}
			setRootLevel(app, configured);
		}
		System.out.printf(Locale.ROOT, "  %-10s %8s %10s%n", "logging", "req/s", "CPU µs/req");
		totals.forEach((off, total) -> System.out.printf(Locale.ROOT, "  %-10s %8.0f %10.0f%n", off ? "off" : "on",
				total[1] / total[2], total[0] / 1e3 / total[1]));
		System.out.printf(Locale.ROOT, "  off ÷ on: CPU/req %s, req/s %s%n", InterleavedRun.summary(cpuRatios),
				InterleavedRun.summary(rateRatios));
		Map<String, Double> requests = new LinkedHashMap<>();
		totals.forEach((off, total) -> requests.put(label(off), total[1]));
		InterleavedRun.printThreadGroups(threadMillis, requests);
		return new double[][] { cpuRatios, rateRatios };
	}

	private static String label(boolean off) {
		return "logging " + (off ? "off" : "on");
	}

	/**
	 * The root logger's effective level, from the endpoint's list ({@code GET
	 * /actuator/loggers/ROOT} answers 404 on the Log4j2 logging system, with and without
	 * the starter).
	 */
	private static String rootLevel(SampleAppProcess app) {
		String body = app.get("/actuator/loggers").body();
		Matcher level = ROOT_LEVEL.matcher(body);
		if (!level.find()) {
			throw new IllegalStateException("no level for the root logger: " + body);
		}
		return level.group(1);
	}

	private static void setRootLevel(SampleAppProcess app, String level) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(app.baseUrl() + "/actuator/loggers/ROOT"))
			.timeout(ANSWER_TIMEOUT)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"configuredLevel\":\"" + level + "\"}"))
			.build();
		HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 204) {
			throw new IllegalStateException("setting the root logger to " + level + " answered " + response.statusCode()
					+ ": " + response.body());
		}
		String now = rootLevel(app);
		if (!now.equals(level)) {
			throw new IllegalStateException("the root logger is " + now + ", not " + level);
		}
	}

}
