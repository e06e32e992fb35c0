package dev.safedefaults.benchmarks.logging;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cost of a log call on the calling thread, 4 threads, a file appender, in four setups,
 * each in its own JVM (issue 4):
 * <ol>
 * <li>(a) the incident: synchronous root, includeLocation, {@code %C.%M:%L};</li>
 * <li>(b) mixed: synchronous root plus an AsyncLogger, Log4j's blocking queue-full
 * policy;</li>
 * <li>(c) the starter's defaults on a plain configuration;</li>
 * <li>(d) hand-tuned without the starter: AsyncRoot, includeLocation=false, Discard.</li>
 * </ol>
 * Then the same with the appender stalled. Prints mean, p50 and p99 ns per call and
 * ratios. Run: {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.logging.LoggingLatencyBenchmark -Dbenchmark=}
 */
public final class LoggingLatencyBenchmark {

	private static final Pattern RESULT = Pattern
		.compile("RESULT calls=(\\d+) mean=([\\d.]+|NaN) p50=(-?\\d+) p99=(-?\\d+) blocked=(\\d+) discarded=(-?\\d+)");

	private LoggingLatencyBenchmark() {
	}

	record Result(long calls, double mean, long p50, long p99, int blocked, long discarded) {
	}

	public static void main(String[] args) throws Exception {
		int calls = Integer.getInteger("bench.calls", 100_000);
		int warmup = Integer.getInteger("bench.warmup", 50_000);
		Path dir = Files.createTempDirectory("logging-bench");
		Map<String, List<String>> setups = new LinkedHashMap<>();
		setups.put("(a) incident: sync + location", List.of("-Dsafe-defaults.logging.enabled=false",
				"-Dlog4j2.configurationFile=" + extract(dir, "a-incident.xml")));
		setups.put("(b) mixed async, blocking",
				List.of("-Dsafe-defaults.logging.enabled=false",
						"-Dlog4j2.configurationFile=" + extract(dir, "b-mixed-blocking.xml"),
						"-Dlog4j2.asyncQueueFullPolicy=Default", "-Dlog4j2.asyncLoggerConfigRingBufferSize=32768"));
		setups.put("(c) safe-defaults starter", List.of("-Dlog4j2.configurationFile=" + extract(dir, "c-starter.xml")));
		setups.put("(d) hand-tuned AsyncRoot",
				List.of("-Dsafe-defaults.logging.enabled=false",
						"-Dlog4j2.configurationFile=" + extract(dir, "d-hand-tuned.xml"),
						"-Dlog4j2.asyncQueueFullPolicy=Discard", "-Dlog4j2.asyncLoggerConfigRingBufferSize=32768"));
		for (boolean stalled : new boolean[] { false, true }) {
			Map<String, Result> results = new LinkedHashMap<>();
			for (Map.Entry<String, List<String>> setup : setups.entrySet()) {
				System.out.println("running " + setup.getKey() + (stalled ? " (appender stalled)" : "") + " ...");
				results.put(setup.getKey(), run(dir, setup.getValue(), stalled, calls, warmup));
			}
			print(stalled, results);
		}
	}

	private static String extract(Path dir, String name) throws IOException {
		Path target = dir.resolve(name);
		try (InputStream in = LoggingLatencyBenchmark.class.getResourceAsStream("/benchmarks/logging/" + name)) {
			Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
		}
		return target.toString();
	}

	private static Result run(Path dir, List<String> jvmArgs, boolean stalled, int calls, int warmup)
			throws IOException, InterruptedException {
		Path logFile = Files.createTempFile(dir, "bench", ".log");
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.add("-Xmx1g");
		command.add("-Dbench.logFile=" + logFile);
		command.addAll(jvmArgs);
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(LoggingLatencyWorker.class.getName());
		command.add(String.valueOf(stalled));
		command.add(String.valueOf(calls));
		command.add(String.valueOf(warmup));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		Result result = null;
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = reader.readLine()) != null) {
				Matcher matcher = RESULT.matcher(line);
				if (matcher.find()) {
					result = new Result(Long.parseLong(matcher.group(1)), Double.parseDouble(matcher.group(2)),
							Long.parseLong(matcher.group(3)), Long.parseLong(matcher.group(4)),
							Integer.parseInt(matcher.group(5)), Long.parseLong(matcher.group(6)));
				}
				else if (line.contains("ERROR") || line.contains("Exception")) {
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

	private static void print(boolean stalled, Map<String, Result> results) {
		System.out.println();
		System.out.println(stalled ? "Appender stalled after warm-up (5 s cut-off):"
				: "Normal: 4 threads, a ~20 µs pause between INFO calls, file appender:");
		System.out.printf("%-32s %10s %10s %10s %10s %8s %10s%n", "setup", "calls", "mean ns", "p50 ns", "p99 ns",
				"blocked", "discarded");
		results.forEach((name, r) -> System.out.printf("%-32s %10d %10.0f %10d %10d %8s %10s%n", name, r.calls(),
				r.mean(), r.p50(), r.p99(), r.blocked() + "/4",
				name.startsWith("(c)") ? String.valueOf(r.discarded()) : "n/a"));
		List<Result> list = new ArrayList<>(results.values());
		Result a = list.get(0);
		Result b = list.get(1);
		Result c = list.get(2);
		Result d = list.get(3);
		System.out.printf(
				"ratios: (a)/(c) mean %.1fx, p99 %.1fx; (b)/(c) mean %.1fx, p99 %.1fx; (c)/(d) mean %.2fx, p99 %.2fx%n",
				a.mean() / c.mean(), (double) a.p99() / c.p99(), b.mean() / c.mean(), (double) b.p99() / c.p99(),
				c.mean() / d.mean(), (double) c.p99() / d.p99());
		System.out.println();
	}

}
