package dev.safedefaults.benchmarks.workload;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.safedefaults.system.SampleAppProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 35: the resource chain's misses on a Thymeleaf application packaged as a Spring
 * Boot fat jar ({@code src/test/resource-chain-app}: Spring MVC, Thymeleaf,
 * webjars-locator-lite, the bootstrap and jquery webjars, actuator, the starter). Its
 * pages render 50 and 120 links to other pages ({@code /owners/{id}}) plus 4 links to a
 * stylesheet and webjars and 3 navigation links; with webjars-locator-lite Boot switches
 * the resource chain on, and {@code ResourceUrlEncodingFilter} looks every link up as a
 * static resource.
 * <p>
 * Three modes, each in a fresh {@code java -jar} process: the starter's default (the
 * misses remembered), the default off
 * ({@code safe-defaults.resource-misses.enabled=false}, Spring's own behaviour) and the
 * upstream workaround ({@code spring.web.resources.chain.enabled=false}, which loses the
 * versioned webjar URLs). The modes run in list order in odd rounds and in reverse in
 * even rounds (A B C C B A), for each fat jar: the typical one (55 nested jars) and,
 * unless {@code chain.jars=exec}, the same application with 31 more libraries (86 nested
 * jars). Per process: warm-up on both pages, then each page measured in turn under a
 * closed-loop load; req/s and the service process's CPU per request; ratios of the same
 * round with their band (lowest to highest round). Each process is checked: the status of
 * {@code resource-misses} as the starter reports it, and the webjar link the page
 * renders.
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.ResourceChainBenchmark -Dbenchmark=
 * -Dbenchmark.jvm="-Dchain.rounds=2 -Dchain.seconds=10"} (JVM options
 * {@code chain.rounds} (3), {@code chain.threads} (8), {@code chain.warmup-seconds} (15),
 * {@code chain.seconds} (20), {@code chain.jars} ({@code exec,exec-large}),
 * {@code chain.method=interleaved} for {@link #interleaved}).
 */
public final class ResourceChainBenchmark {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final List<Integer> PAGES = List.of(50, 120);

	private ResourceChainBenchmark() {
	}

	/**
	 * A way to run the app.
	 *
	 * @param label its name in the tables
	 * @param jvmArgs its switches
	 */
	record Mode(String label, List<String> jvmArgs) {
	}

	static final Mode DEFAULT = new Mode("starter default", List.of());

	static final Mode OFF = new Mode("default off", List.of("-Dsafe-defaults.resource-misses.enabled=false"));

	static final Mode WORKAROUND = new Mode("chain off (workaround)",
			List.of("-Dspring.web.resources.chain.enabled=false"));

	/**
	 * One page measured in one process.
	 *
	 * @param reqPerSecond answered requests per second
	 * @param cpuMillisPerRequest the service process's CPU per answered request
	 * @param p50Micros the median latency
	 * @param non200 requests not answered 200
	 */
	record Figures(double reqPerSecond, double cpuMillisPerRequest, long p50Micros, long non200) {
	}

	public static void main(String[] args) throws Exception {
		int rounds = Integer.getInteger("chain.rounds", 3);
		int threads = Integer.getInteger("chain.threads", 8);
		Duration warmup = Duration.ofSeconds(Integer.getInteger("chain.warmup-seconds", 15));
		Duration measured = Duration.ofSeconds(Integer.getInteger("chain.seconds", 20));
		List<String> jars = List.of(System.getProperty("chain.jars", "exec,exec-large").split(","));
		String typical = System.getProperty("resource-chain-app.jar");
		if (typical == null) {
			throw new IllegalStateException("-Dresource-chain-app.jar is not set: run through the benchmarks profile");
		}
		if ("interleaved".equals(System.getProperty("chain.method"))) {
			interleaved(Path.of(typical), threads, warmup, Integer.getInteger("chain.page", 120));
			return;
		}
		List<Mode> modes = List.of(DEFAULT, OFF, WORKAROUND);
		// jar -> page -> mode -> figures per round
		Map<String, Map<Integer, Map<String, List<Figures>>>> results = new LinkedHashMap<>();
		Map<String, String> checks = new LinkedHashMap<>();
		for (int round = 1; round <= rounds; round++) {
			for (String variant : jars) {
				Path jar = Path.of(typical.replace("-exec.jar", "-" + variant + ".jar"));
				List<Mode> order = new ArrayList<>(modes);
				if (round % 2 == 0) {
					Collections.reverse(order);
				}
				for (Mode mode : order) {
					System.out.printf(Locale.ROOT, "round %d, %s, %s%n", round, variant, mode.label());
					Map<Integer, Figures> figures = run(jar, variant, mode, threads, warmup, measured, checks);
					figures.forEach((page, figure) -> results.computeIfAbsent(variant, (v) -> new LinkedHashMap<>())
						.computeIfAbsent(page, (p) -> new LinkedHashMap<>())
						.computeIfAbsent(mode.label(), (m) -> new ArrayList<>())
						.add(figure));
				}
			}
		}
		print(results, checks, modes, rounds, threads, warmup, measured);
	}

	/**
	 * The interleaved method ({@code -Dchain.method=interleaved}, see
	 * {@link InterleavedRun}), for the comparison the sequential rounds could not settle:
	 * the starter's default against the workaround on the typical fat jar, one page
	 * ({@code chain.page}, 120 links), every process warmed up alone, then the load moved
	 * between them in {@code chain.window-seconds} (3) windows for {@code chain.cycles}
	 * (12) cycles, with the A/A control of the default.
	 */
	private static void interleaved(Path jar, int threads, Duration warmup, int page) throws Exception {
		List<InterleavedRun.Target> targets = new ArrayList<>();
		for (Mode mode : List.of(DEFAULT, WORKAROUND)) {
			targets.add(new InterleavedRun.Target(mode.label(), jar, mode.jvmArgs(),
					List.of("--management.endpoint.health.show-details=always"), ResourceChainBenchmark::check));
		}
		InterleavedRun.run("Resource chain misses (issue 35), page of " + page + " links", targets,
				(i) -> "/links/" + page, threads, warmup,
				Duration.ofSeconds(Integer.getInteger("chain.window-seconds", 3)),
				Integer.getInteger("chain.cycles", 12));
	}

	private static Map<Integer, Figures> run(Path jar, String variant, Mode mode, int threads, Duration warmup,
			Duration measured, Map<String, String> checks) throws Exception {
		String name = "resource-chain-" + variant + "-" + mode.label().replaceAll("[^a-z]+", "-");
		try (SampleAppProcess app = SampleAppProcess.startJar(jar, name, mode.jvmArgs(),
				List.of("--management.endpoint.health.show-details=always"))) {
			if (!app.isAlive()) {
				throw new IllegalStateException(mode + " did not start:\n" + app.log());
			}
			checks.putIfAbsent(variant + ", " + mode.label(), check(app));
			LoadDriver driver = new LoadDriver();
			for (int page : PAGES) {
				driver.run(app.baseUrl(), threads, warmup.dividedBy(PAGES.size()), Long.MAX_VALUE,
						(i) -> "/links/" + page);
			}
			Map<Integer, Figures> figures = new LinkedHashMap<>();
			for (int page : PAGES) {
				Duration cpuBefore = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
				LoadDriver.Result load = driver.run(app.baseUrl(), threads, measured, Long.MAX_VALUE,
						(i) -> "/links/" + page);
				Duration cpuAfter = app.handle().info().totalCpuDuration().orElse(Duration.ZERO);
				long requests = Math.max(1, load.requests());
				figures.put(page,
						new Figures(load.perSecond(), cpuAfter.minus(cpuBefore).toMillis() / (double) requests,
								load.percentileMicros(0.5), load.requests() - load.answered(200)));
			}
			return figures;
		}
	}

	/**
	 * What the starter reports for {@code resource-misses}, and the bootstrap link the
	 * page renders.
	 */
	private static String check(SampleAppProcess app) {
		String status = "no status";
		JsonNode body = JSON.readTree(app.get("/actuator/safedefaults").body());
		for (JsonNode feature : body.path("features")) {
			if (feature.path("feature").asString().equals("resource-misses")) {
				status = (feature.path("enabled").asBoolean() ? "applied to " + feature.path("appliedTo")
						: "off: " + feature.path("reason").asString());
			}
		}
		String page = app.get("/links/3").body();
		int at = page.indexOf("/webjars/bootstrap/");
		String link = (at < 0) ? "no bootstrap link" : page.substring(at, page.indexOf('"', at));
		return status + "; page links " + link;
	}

	private static void print(Map<String, Map<Integer, Map<String, List<Figures>>>> results, Map<String, String> checks,
			List<Mode> modes, int rounds, int threads, Duration warmup, Duration measured) {
		System.out.println();
		System.out.printf(Locale.ROOT,
				"Resource chain misses (issue 35): %d rounds (A B C, C B A), fresh java -jar per run, %d client "
						+ "threads, %d s warm-up, %d s measured per page%n",
				rounds, threads, warmup.toSeconds(), measured.toSeconds());
		checks.forEach((run, check) -> System.out.println("  " + run + ": " + check));
		results.forEach((variant, pages) -> pages.forEach((page, byMode) -> {
			System.out.printf(Locale.ROOT, "%n%s, page of %d links%n", variant, page);
			System.out.printf(Locale.ROOT, "%-24s %12s %-28s %12s %-28s %9s %7s%n", "mode", "req/s mean", "(per round)",
					"CPU ms/req", "(per round)", "p50 ms", "non-200");
			for (Mode mode : modes) {
				List<Figures> figures = byMode.get(mode.label());
				System.out.printf(Locale.ROOT, "%-24s %12.0f %-28s %12.2f %-28s %9.2f %7d%n", mode.label(),
						mean(figures, Figures::reqPerSecond), perRound(figures, Figures::reqPerSecond, "%.0f"),
						mean(figures, Figures::cpuMillisPerRequest),
						perRound(figures, Figures::cpuMillisPerRequest, "%.2f"),
						mean(figures, (f) -> f.p50Micros() / 1000.0),
						figures.stream().mapToLong(Figures::non200).sum());
			}
			List<Figures> starter = byMode.get(DEFAULT.label());
			for (Mode other : List.of(OFF, WORKAROUND)) {
				List<Figures> them = byMode.get(other.label());
				System.out.printf(Locale.ROOT, "  req/s, default over %s: %s; CPU/req, %s over default: %s%n",
						other.label(), ratio(starter, them, Figures::reqPerSecond), other.label(),
						ratio(them, starter, Figures::cpuMillisPerRequest));
			}
			System.out.printf(Locale.ROOT, "  spread of the default's req/s between rounds: %s%n",
					spread(starter, Figures::reqPerSecond));
		}));
	}

	/** The mean of the same-round ratios a/b and their band. */
	private static String ratio(List<Figures> a, List<Figures> b, ToDoubleFunction<Figures> value) {
		List<Double> ratios = new ArrayList<>();
		for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
			ratios.add(value.applyAsDouble(a.get(i)) / value.applyAsDouble(b.get(i)));
		}
		double mean = ratios.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
		return String.format(Locale.ROOT, "%.2fx (%.2f-%.2f)", mean, Collections.min(ratios), Collections.max(ratios));
	}

	private static String spread(List<Figures> figures, ToDoubleFunction<Figures> value) {
		double min = figures.stream().mapToDouble(value).min().orElse(Double.NaN);
		double max = figures.stream().mapToDouble(value).max().orElse(Double.NaN);
		double mean = mean(figures, value);
		return String.format(Locale.ROOT, "%.0f-%.0f (-%.0f%% / +%.0f%% of the mean)", min, max,
				100 * (mean - min) / mean, 100 * (max - mean) / mean);
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
