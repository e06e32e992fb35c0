package dev.safedefaults.benchmarks.workload;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import dev.safedefaults.system.SampleAppProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 32: what the starter costs a healthy server-rendered application, the way the
 * issue measured it. The application ({@code src/test/page-mix-app}: Spring Data JPA,
 * Hibernate, Thymeleaf, the actuator, Connector/J on the machine's MariaDB, open-in-view
 * as Boot sets it, no logging per request, no webjars) is packaged three times: without
 * the starter (Boot's Logback), with the starter as the README adds it (the Log4j2 route)
 * and with the starter keeping Logback. Closed-loop load on a mix of six pages (welcome,
 * find owners, an owner with pets and visits, the edit form, a transaction that changes
 * an owner, a page of vets).
 * <p>
 * Each mode runs in a fresh {@code java -jar} process, the modes in list order in odd
 * rounds and in reverse in even rounds. Per run: req/s and the service process's CPU per
 * request; CPU per request by thread group ({@code /proc}); allocation per request and GC
 * pause time (Micrometer's {@code jvm.gc.memory.allocated} and {@code jvm.gc.pause});
 * database statements per request (the server's {@code Questions} and
 * {@code Com_stmt_execute}: the harness logs in once per reading, the benchmark's
 * database is assumed otherwise idle); the startup time, the CPU per second with no
 * traffic and the resident memory. Ratios to "no starter" are taken round by round and
 * printed as the mean with the band from the lowest to the highest round.
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.PageMixCostBenchmark -Dbenchmark=}
 * (JVM options through {@code -Dbenchmark.jvm}: {@code pagemix.rounds} (3),
 * {@code pagemix.threads} (8), {@code pagemix.warmup-seconds} (20),
 * {@code pagemix.seconds} (20), {@code pagemix.idle-seconds} (5), {@code pagemix.modes}
 * (labels in lower case with dashes, e.g. {@code log4j2-route-jdbc-off}; "no starter"
 * always runs; the default runs {@link #DEFAULT_MODES}), {@code pagemix.db-url} (the
 * machine's MariaDB)).
 */
public final class PageMixCostBenchmark {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	static final String BASELINE = "no starter";

	static final List<String> DEFAULT_MODES = List.of(BASELINE, "log4j2 route", "logback route",
			"log4j2 route, starter off");

	/**
	 * A way to run the application.
	 *
	 * @param label its name in the tables
	 * @param jar which fat jar: {@code exec} (Log4j2 route), {@code exec-logback},
	 * {@code exec-plain} (no starter)
	 * @param jvmArgs its switches
	 */
	record Mode(String label, String jar, List<String> jvmArgs) {
	}

	static List<Mode> modes() {
		return List.of(new Mode(BASELINE, "exec-plain", List.of()), new Mode("log4j2 route", "exec", List.of()),
				new Mode("logback route", "exec-logback", List.of()),
				new Mode("log4j2 route, starter off", "exec", List.of("-Dsafe-defaults.enabled=false")),
				// The pieces, one at a time (run when named in pagemix.modes).
				new Mode("log4j2 route, jdbc off", "exec", List.of("-Dsafe-defaults.jdbc.enabled=false")),
				new Mode("logback route, jdbc off", "exec-logback", List.of("-Dsafe-defaults.jdbc.enabled=false")),
				new Mode("log4j2 route, logging off", "exec", List.of("-Dsafe-defaults.logging.enabled=false")),
				new Mode("logback route, logging off", "exec-logback",
						List.of("-Dsafe-defaults.logging.enabled=false")),
				new Mode("log4j2 route, resource-misses off", "exec",
						List.of("-Dsafe-defaults.resource-misses.enabled=false")),
				new Mode("log4j2 route, config-cache off", "exec",
						List.of("-Dsafe-defaults.config-cache.enabled=false")),
				new Mode("log4j2 route, checks off", "exec", List.of("-Dsafe-defaults.checks.enabled=false")),
				// The Log4j2 route's background thread as it was before issue 32: a 1 ms
				// poll.
				new Mode("log4j2 route, sleep 1ms", "exec",
						List.of("-Dlog4j2.asyncLoggerSleepTimeNs=1000000",
								"-Dlog4j2.asyncLoggerConfigSleepTimeNs=1000000")),
				new Mode("log4j2 route, timeout wait", "exec",
						List.of("-Dlog4j2.asyncLoggerWaitStrategy=Timeout",
								"-Dlog4j2.asyncLoggerConfigWaitStrategy=Timeout")),
				new Mode("log4j2 route, sync loggers", "exec", List
					.of("-Dlog4j2.contextSelector=org.apache.logging.log4j.core.selector.ClassLoaderContextSelector")));
	}

	/** A mode's label as pagemix.modes names it: {@code log4j2-route-jdbc-off}. */
	static String key(String label) {
		return label.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
	}

	/** The pages of the mix, one after the other for each client thread. */
	static String page(long i) {
		long owner = 1 + ((i * 7) % 60);
		return switch ((int) (i % 6)) {
			case 0 -> "/";
			case 1 -> "/owners?lastName=" + "DFBESMR".charAt((int) ((i / 6) % 7));
			case 2 -> "/owners/" + owner;
			case 3 -> "/owners/" + owner + "/edit";
			case 4 -> "/owners/" + owner + "/renumber";
			default -> "/vets?page=" + ((i / 6) % 3);
		};
	}

	/**
	 * One run's figures.
	 *
	 * @param reqPerSecond answered requests per second
	 * @param cpuMicrosPerRequest the process's CPU per answered request
	 * @param threadMicrosPerRequest CPU per request by thread group
	 * @param allocatedKbPerRequest heap allocated per request
	 * @param gcMillisPer1000 GC pause time per 1,000 requests
	 * @param statementsPerRequest statements the server received per request
	 * @param executesPerRequest server-side prepared statement executions per request
	 * @param non200 answers other than 200
	 * @param startupSeconds launch to the first healthy answer
	 * @param idleCpuMillisPerSecond CPU per second with no traffic
	 * @param residentMb resident memory after the load
	 */
	record Figures(double reqPerSecond, double cpuMicrosPerRequest, Map<String, Double> threadMicrosPerRequest,
			double allocatedKbPerRequest, double gcMillisPer1000, double statementsPerRequest,
			double executesPerRequest, long non200, double startupSeconds, double idleCpuMillisPerSecond,
			double residentMb) {
	}

	private PageMixCostBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = Integer.getInteger("pagemix.rounds", 3);
		int threads = Integer.getInteger("pagemix.threads", 8);
		Duration warmup = Duration.ofSeconds(Integer.getInteger("pagemix.warmup-seconds", 20));
		Duration measured = Duration.ofSeconds(Integer.getInteger("pagemix.seconds", 20));
		int idleSeconds = Integer.getInteger("pagemix.idle-seconds", 5);
		String dbUrl = System.getProperty("pagemix.db-url", "jdbc:mysql://127.0.0.1:3306/test?user=root");
		String typical = System.getProperty("page-mix-app.jar");
		if (typical == null) {
			throw new IllegalStateException("-Dpage-mix-app.jar is not set: run through the benchmarks profile");
		}
		Set<String> wanted = new LinkedHashSet<>();
		DEFAULT_MODES.forEach((label) -> wanted.add(key(label)));
		String named = System.getProperty("pagemix.modes", "");
		if (!named.isBlank()) {
			wanted.clear();
			wanted.add(key(BASELINE));
			for (String label : named.split(",")) {
				wanted.add(key(label));
			}
		}
		List<Mode> modes = new ArrayList<>();
		for (Mode mode : modes()) {
			if (wanted.remove(key(mode.label()))) {
				modes.add(mode);
			}
		}
		if (!wanted.isEmpty()) {
			throw new IllegalArgumentException("pagemix.modes names unknown modes " + wanted + "; known: "
					+ modes().stream().map((m) -> key(m.label())).toList());
		}
		if ("interleaved".equals(System.getProperty("pagemix.method", "sequential"))) {
			interleaved(typical, modes, threads, warmup,
					Duration.ofSeconds(Integer.getInteger("pagemix.window-seconds", 3)),
					Integer.getInteger("pagemix.cycles", 12));
			return;
		}
		Map<String, List<Figures>> results = new LinkedHashMap<>();
		Map<String, String> checks = new LinkedHashMap<>();
		// The first process after the build can run far slower than the same mode later
		// (2,869 against 1,673 and 1,466 µs per request once here; 5.9 against 3.6 ms in
		// the cost benchmark's issue 32 run): one unmeasured run first.
		Mode first = modes.get(0);
		System.out.printf(Locale.ROOT, "settling run (not measured), %s%n", first.label());
		run(Path.of(typical.replace("-exec.jar", "-" + first.jar() + ".jar")), first, threads, warmup,
				Duration.ofSeconds(5), 0, dbUrl, new LinkedHashMap<>());
		for (int round = 1; round <= rounds; round++) {
			List<Mode> order = new ArrayList<>(modes);
			if (round % 2 == 0) {
				Collections.reverse(order);
			}
			for (Mode mode : order) {
				System.out.printf(Locale.ROOT, "round %d, %s%n", round, mode.label());
				Path jar = Path.of(typical.replace("-exec.jar", "-" + mode.jar() + ".jar"));
				Figures figures = run(jar, mode, threads, warmup, measured, idleSeconds, dbUrl, checks);
				System.out.printf(Locale.ROOT, "  %.0f req/s, %.0f µs CPU per request%n", figures.reqPerSecond(),
						figures.cpuMicrosPerRequest());
				results.computeIfAbsent(mode.label(), (m) -> new ArrayList<>()).add(figures);
			}
		}
		print(results, checks, modes, rounds, threads, warmup, measured);
	}

	private static Figures run(Path jar, Mode mode, int threads, Duration warmup, Duration measured, int idleSeconds,
			String dbUrl, Map<String, String> checks) throws Exception {
		String name = "page-mix-" + mode.label().replaceAll("[^a-z0-9]+", "-");
		long launched = System.nanoTime();
		try (SampleAppProcess app = SampleAppProcess.startJar(jar, name, mode.jvmArgs(),
				List.of("--management.endpoint.health.show-details=always"))) {
			double startupSeconds = (System.nanoTime() - launched) / 1e9;
			if (!app.isAlive()) {
				throw new IllegalStateException(mode + " did not start:\n" + app.log());
			}
			checks.putIfAbsent(mode.label(), check(app, jar));
			LoadDriver driver = new LoadDriver();
			driver.run(app.baseUrl(), threads, warmup, Long.MAX_VALUE, PageMixCostBenchmark::page);
			double allocatedBefore = metric(app, "jvm.gc.memory.allocated", "COUNT");
			double gcBefore = metric(app, "jvm.gc.pause", "TOTAL_TIME");
			Map<String, Long> statementsBefore = statements(dbUrl);
			Duration cpuBefore = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
			Map<String, Long> threadsBefore = ThreadCpu.millisByName(app.handle());
			LoadDriver.Result load = driver.run(app.baseUrl(), threads, measured, Long.MAX_VALUE,
					PageMixCostBenchmark::page);
			Duration cpuAfter = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
			Map<String, Long> threadCpu = ThreadCpu.between(threadsBefore, ThreadCpu.millisByName(app.handle()));
			Map<String, Long> statementsAfter = statements(dbUrl);
			double allocated = metric(app, "jvm.gc.memory.allocated", "COUNT") - allocatedBefore;
			double gcSeconds = metric(app, "jvm.gc.pause", "TOTAL_TIME") - gcBefore;
			double idle = WorkloadRun.idleCpuMillisPerSecond(app, idleSeconds);
			double residentMb = WorkloadRun.residentKb(app) / 1024.0;
			long requests = Math.max(1, load.requests());
			Map<String, Double> byGroup = new TreeMap<>();
			ThreadCpu.byGroup(threadCpu).forEach((group, millis) -> byGroup.put(group, millis * 1000.0 / requests));
			// The harness's own readings: one SHOW GLOBAL STATUS each (Questions counts
			// it).
			double statements = (statementsAfter.get("Questions") - statementsBefore.get("Questions") - 1)
					/ (double) requests;
			double executes = (statementsAfter.get("Com_stmt_execute") - statementsBefore.get("Com_stmt_execute"))
					/ (double) requests;
			return new Figures(load.perSecond(), cpuAfter.minus(cpuBefore).toNanos() / 1e3 / requests, byGroup,
					allocated / 1024 / requests, gcSeconds * 1e6 / requests, statements, executes,
					load.requests() - load.answered(200), startupSeconds, idle, residentMb);
		}
	}

	private static void interleaved(String typical, List<Mode> modes, int threads, Duration warmup, Duration window,
			int cycles) throws Exception {
		List<InterleavedRun.Target> targets = new ArrayList<>();
		for (Mode mode : modes) {
			Path jar = Path.of(typical.replace("-exec.jar", "-" + mode.jar() + ".jar"));
			targets.add(new InterleavedRun.Target(mode.label(), jar, mode.jvmArgs(),
					List.of("--management.endpoint.health.show-details=always"), (app) -> check(app, jar)));
		}
		InterleavedRun.run("Page mix cost (issue 32)", targets, PageMixCostBenchmark::page, threads, warmup, window,
				cycles);
	}

	/** The logging route the starter reports (or its absence), and the nested jars. */
	private static String check(SampleAppProcess app, Path jar) {
		String route = "starter absent or off";
		var response = app.get("/actuator/safedefaults");
		if (response.statusCode() == 200) {
			for (JsonNode feature : JSON.readTree(response.body()).path("features")) {
				if (feature.path("feature").asString().equals("logging")) {
					route = "logging: " + (feature.path("enabled").asBoolean()
							? feature.path("appliedTo").path(0).asString() : "off");
				}
			}
		}
		long nested;
		try (var zip = new java.util.zip.ZipFile(jar.toFile())) {
			nested = zip.stream().filter((e) -> e.getName().startsWith("BOOT-INF/lib/")).count();
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		String page = app.get("/owners/3").body();
		if (!page.contains("Owner information")) {
			throw new IllegalStateException("The owner page did not render: " + page);
		}
		return route + "; " + nested + " nested jars";
	}

	private static double metric(SampleAppProcess app, String name, String statistic) {
		var response = app.get("/actuator/metrics/" + name);
		if (response.statusCode() == 404) {
			return 0;
		}
		for (JsonNode measurement : JSON.readTree(response.body()).path("measurements")) {
			if (measurement.path("statistic").asString().equals(statistic)) {
				return measurement.path("value").asDouble();
			}
		}
		throw new IllegalStateException(name + " has no " + statistic + ": " + response.body());
	}

	private static Map<String, Long> statements(String url) throws SQLException {
		Map<String, Long> counters = new LinkedHashMap<>();
		DriverManager.setLoginTimeout(10);
		try (Connection connection = DriverManager.getConnection(url);
				Statement statement = connection.createStatement()) {
			statement.setQueryTimeout(10);
			try (ResultSet result = statement
				.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_stmt_execute')")) {
				while (result.next()) {
					counters.put(result.getString(1), result.getLong(2));
				}
			}
		}
		return counters;
	}

	private static void print(Map<String, List<Figures>> results, Map<String, String> checks, List<Mode> modes,
			int rounds, int threads, Duration warmup, Duration measured) {
		System.out.println();
		System.out.printf(Locale.ROOT,
				"Page mix cost (issue 32): %d rounds (modes in order, then reversed), fresh java -jar per run, "
						+ "%d client threads, %d s warm-up, %d s measured, JDK %s%n",
				rounds, threads, warmup.toSeconds(), measured.toSeconds(), Runtime.version());
		checks.forEach((mode, check) -> System.out.println("  " + mode + ": " + check));
		List<Figures> baseline = results.get(BASELINE);
		System.out.printf(Locale.ROOT, "%n%-34s %8s %-22s %9s %-24s %7s %-22s %-22s%n", "mode", "req/s", "(per round)",
				"CPU µs/req", "(per round)", "spread", "req/s vs no starter", "CPU/req vs no starter");
		for (Mode mode : modes) {
			List<Figures> figures = results.get(mode.label());
			System.out.printf(Locale.ROOT, "%-34s %8.0f %-22s %9.0f %-24s %6.1f%% %-22s %-22s%n", mode.label(),
					mean(figures, Figures::reqPerSecond), perRound(figures, Figures::reqPerSecond, "%.0f"),
					mean(figures, Figures::cpuMicrosPerRequest),
					perRound(figures, Figures::cpuMicrosPerRequest, "%.0f"),
					spread(figures, Figures::cpuMicrosPerRequest), ratio(figures, baseline, Figures::reqPerSecond),
					ratio(figures, baseline, Figures::cpuMicrosPerRequest));
		}
		System.out.printf(Locale.ROOT, "%n%-34s %10s %12s %11s %11s %8s %10s %10s %7s%n", "mode (mean of the rounds)",
				"alloc KB/req", "GC ms/1000req", "stmts/req", "execs/req", "non-200", "startup s", "idle ms/s",
				"RSS MB");
		for (Mode mode : modes) {
			List<Figures> figures = results.get(mode.label());
			System.out.printf(Locale.ROOT, "%-34s %12.1f %13.2f %11.2f %11.2f %8d %10.1f %10.1f %7.0f%n", mode.label(),
					mean(figures, Figures::allocatedKbPerRequest), mean(figures, Figures::gcMillisPer1000),
					mean(figures, Figures::statementsPerRequest), mean(figures, Figures::executesPerRequest),
					figures.stream().mapToLong(Figures::non200).sum(), mean(figures, Figures::startupSeconds),
					mean(figures, Figures::idleCpuMillisPerSecond), mean(figures, Figures::residentMb));
		}
		Map<String, Map<String, Double>> groups = new LinkedHashMap<>();
		Map<String, Double> totals = new LinkedHashMap<>();
		for (Mode mode : modes) {
			List<Figures> figures = results.get(mode.label());
			Map<String, Double> micros = new TreeMap<>();
			figures.forEach((f) -> f.threadMicrosPerRequest()
				.forEach((group, value) -> micros.merge(group, value / figures.size(), Double::sum)));
			groups.put(mode.label(), micros);
			totals.put(mode.label(), mean(figures, Figures::cpuMicrosPerRequest));
		}
		System.out.printf(Locale.ROOT, "%nCPU µs per request by thread group (mean of the rounds; groups of >= 2%% of "
				+ "some mode's CPU, 'other' the rest)%n");
		ThreadCpu.printMicrosPerRequest(groups, totals);
		System.out.println();
		System.out.println("Command lines: " + modes.stream()
			.map((m) -> m.label() + " = java " + String.join(" ", m.jvmArgs()) + " -jar page-mix-app-" + m.jar()
					+ ".jar")
			.collect(Collectors.joining("; ")));
	}

	/** The mean of the same-round ratios a/b and their band. */
	private static String ratio(List<Figures> a, List<Figures> b, ToDoubleFunction<Figures> value) {
		List<Double> ratios = new ArrayList<>();
		for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
			ratios.add(value.applyAsDouble(a.get(i)) / value.applyAsDouble(b.get(i)));
		}
		double mean = ratios.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
		return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", mean, Collections.min(ratios), Collections.max(ratios));
	}

	private static double spread(List<Figures> figures, ToDoubleFunction<Figures> value) {
		double min = figures.stream().mapToDouble(value).min().orElse(Double.NaN);
		double max = figures.stream().mapToDouble(value).max().orElse(Double.NaN);
		return 100 * (max - min) / mean(figures, value);
	}

	private static double mean(List<Figures> figures, ToDoubleFunction<Figures> value) {
		return figures.stream().mapToDouble(value).average().orElse(Double.NaN);
	}

	private static String perRound(List<Figures> figures, ToDoubleFunction<Figures> value, String format) {
		List<String> each = new ArrayList<>();
		figures.forEach((f) -> each.add(String.format(Locale.ROOT, format, value.applyAsDouble(f))));
		return String.join(" / ", each);
	}

}
