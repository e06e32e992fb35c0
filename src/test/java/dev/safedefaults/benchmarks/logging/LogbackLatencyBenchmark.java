package dev.safedefaults.benchmarks.logging;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Cost of a log call on the calling thread on the Logback route (issue 21), the Log4j2
 * benchmark's method ({@link LoggingLatencyBenchmark}): four threads, a console appender,
 * each setup in its own JVM, in one run:
 * <ol>
 * <li>plain Logback, a synchronous {@code ConsoleAppender};</li>
 * <li>Logback's {@code AsyncAppender} with its defaults (queueSize 256, discarding
 * threshold 20%, neverBlock=false);</li>
 * <li>the same configuration as 1 wrapped by the starter ({@code LogbackAsyncWrapping},
 * {@code CountingAsyncAppender}, default queue size);</li>
 * <li>Log4j2 with the starter (all-async), a console appender, same pattern.</li>
 * </ol>
 * Scenarios: stdout slowed (50 µs per line, one call in 50 a WARN, one in 200 an ERROR),
 * stdout stalled for 5 s with INFO only, and stalled with WARN/ERROR mixed in. Prints
 * mean, p50 and p99 ns per call, threads blocked at the cut-off, INFO discarded (counted
 * by the starter; not written and uncounted otherwise), WARN/ERROR logged and written,
 * and the ratios. Logback is not a dependency of this module: the benchmarks profile
 * copies its jars to {@code target/logback-bench}, added to the Logback JVMs' class path
 * only. Run: {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.logging.LogbackLatencyBenchmark -Dbenchmark=}
 */
public final class LogbackLatencyBenchmark {

	private static final Pattern RESULT = Pattern.compile("RESULT calls=(\\d+) mean=([\\d.]+|NaN) p50=(-?\\d+) "
			+ "p99=(-?\\d+) blocked=(\\d+) discarded=(-?\\d+) infoLogged=(\\d+) infoWritten=(-?\\d+) "
			+ "severeLogged=(\\d+) severeWritten=(\\d+)");

	private static final List<String> SETUPS = List.of("logback-plain", "logback-async", "logback-starter",
			"log4j2-starter");

	private static final Map<String, String> NAMES = Map.of("logback-plain", "(1) plain Logback", "logback-async",
			"(2) Logback AsyncAppender", "logback-starter", "(3) Logback + starter", "log4j2-starter",
			"(4) Log4j2 + starter");

	private LogbackLatencyBenchmark() {
	}

	record Result(long calls, double mean, long p50, long p99, int blocked, long discarded, long infoLogged,
			long infoWritten, long severeLogged, long severeWritten) {
	}

	public static void main(String[] args) throws Exception {
		int calls = Integer.getInteger("bench.calls", 20_000);
		int warmup = Integer.getInteger("bench.warmup", 20_000);
		String logback = logbackClassPath();
		Path dir = Files.createTempDirectory("logback-bench");
		Path log4j2 = dir.resolve("log4j2-starter-console.xml");
		try (var in = LogbackLatencyBenchmark.class
			.getResourceAsStream("/benchmarks/logging/log4j2-starter-console.xml")) {
			Files.copy(in, log4j2);
		}
		for (String scenario : List.of("slow", "stalled-info", "stalled-mixed")) {
			Map<String, Result> results = new LinkedHashMap<>();
			for (String setup : SETUPS) {
				System.out.println("running " + NAMES.get(setup) + " (" + scenario + ") ...");
				List<String> jvm = new ArrayList<>();
				String classPath = System.getProperty("java.class.path");
				if (setup.startsWith("logback")) {
					classPath = classPath + File.pathSeparator + logback;
				}
				else {
					jvm.add("-Dlog4j2.configurationFile=" + log4j2);
				}
				results.put(setup, run(dir, jvm, classPath, setup, scenario, calls, warmup));
			}
			print(scenario, results);
		}
		System.out.println("load average at the end: " + Files.readString(Path.of("/proc/loadavg")).trim());
	}

	private static String logbackClassPath() throws IOException {
		Path dir = Path.of(System.getProperty("bench.logback.dir", "target/logback-bench"));
		try (Stream<Path> jars = Files.list(dir)) {
			return String.join(File.pathSeparator,
					jars.filter((p) -> p.toString().endsWith(".jar")).map(Path::toString).sorted().toList());
		}
	}

	private static Result run(Path dir, List<String> jvmArgs, String classPath, String setup, String scenario,
			int calls, int warmup) throws IOException, InterruptedException {
		Path logFile = Files.createTempFile(dir, "bench", ".log");
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.add("-Xmx1g");
		command.add("-Dbench.logFile=" + logFile);
		command.addAll(jvmArgs);
		command.add("-cp");
		command.add(classPath);
		command.add(LogbackLatencyWorker.class.getName());
		command.add(setup);
		command.add(scenario);
		command.add(String.valueOf(calls));
		command.add(String.valueOf(warmup));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		Result result = null;
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				Matcher m = RESULT.matcher(line);
				if (m.find()) {
					result = new Result(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2)),
							Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Integer.parseInt(m.group(5)),
							Long.parseLong(m.group(6)), Long.parseLong(m.group(7)), Long.parseLong(m.group(8)),
							Long.parseLong(m.group(9)), Long.parseLong(m.group(10)));
				}
				else {
					System.out.println("  | " + line);
				}
			}
		}
		if (!process.waitFor(5, TimeUnit.MINUTES)) {
			process.destroyForcibly();
		}
		Files.deleteIfExists(logFile);
		if (result == null) {
			throw new IllegalStateException("No result from " + command);
		}
		return result;
	}

	private static void print(String scenario, Map<String, Result> results) {
		System.out.println();
		System.out.println(switch (scenario) {
			case "slow" ->
				"stdout slowed (50 us per line) after warm-up, 5 s cut-off; 1 call in 50 WARN, 1 in 200 ERROR:";
			case "stalled-info" -> "stdout stalled after warm-up, 5 s cut-off; INFO only:";
			default -> "stdout stalled after warm-up, 5 s cut-off; 1 call in 50 WARN, 1 in 200 ERROR:";
		});
		System.out.printf("%-28s %8s %10s %9s %10s %8s %12s %14s %16s%n", "setup", "calls", "mean ns", "p50 ns",
				"p99 ns", "blocked", "discarded", "INFO not written", "WARN+ERROR lost");
		results.forEach((setup, r) -> System.out.printf("%-28s %8d %10.0f %9d %10d %8s %12s %14d %16s%n",
				NAMES.get(setup), r.calls(), r.mean(), r.p50(), r.p99(), r.blocked() + "/4",
				(r.discarded() < 0) ? "uncounted" : String.valueOf(r.discarded()), r.infoLogged() - r.infoWritten(),
				(r.severeLogged() - r.severeWritten()) + " of " + r.severeLogged()));
		Result plain = results.get("logback-plain");
		Result async = results.get("logback-async");
		Result starter = results.get("logback-starter");
		Result log4j2 = results.get("log4j2-starter");
		System.out.printf(
				"ratios: plain/starter mean %.1fx p99 %.1fx; AsyncAppender/starter mean %.2fx p99 %.2fx; "
						+ "starter-Logback/starter-Log4j2 mean %.2fx p99 %.2fx%n",
				plain.mean() / starter.mean(), (double) plain.p99() / starter.p99(), async.mean() / starter.mean(),
				(double) async.p99() / starter.p99(), starter.mean() / log4j2.mean(),
				(double) starter.p99() / log4j2.p99());
		System.out.println();
	}

}
