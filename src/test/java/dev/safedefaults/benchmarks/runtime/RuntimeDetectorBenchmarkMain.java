package dev.safedefaults.benchmarks.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link RuntimeDetectorBenchmark} alternating: in each round one fork per mode, the
 * order reversed every other round, so that drift of the machine falls on both sides. A
 * fork is a fresh JVM: on JDK 17 the flight recorder instruments {@code Throwable} for
 * the rest of the JVM's life once it has started, so off and on must never share one.
 * Prints each fork's score, the overhead of {@code on} over {@code off} per round and
 * overall, and the noise band: how far the {@code off} forks alone spread.
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.runtime.RuntimeDetectorBenchmarkMain
 * -Dbenchmark="5 -wi 3 -i 5 -w 1s -r 1s"} (the first argument is the number of rounds,
 * the rest is JMH's command line).
 */
public final class RuntimeDetectorBenchmarkMain {

	private static final List<String> MODES = List.of("off", "on", "window");

	private RuntimeDetectorBenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		CommandLineOptions jmh = new CommandLineOptions(
				Arrays.copyOfRange(args, Math.min(1, args.length), args.length));
		// benchmark -> mode -> one score per round
		Map<String, Map<String, List<Double>>> scores = new LinkedHashMap<>();
		for (int round = 0; round < rounds; round++) {
			List<String> order = new ArrayList<>(MODES);
			if (round % 2 == 1) {
				Collections.reverse(order);
			}
			for (String mode : order) {
				Options options = new OptionsBuilder().parent(jmh)
					.include(RuntimeDetectorBenchmark.class.getName())
					.param("detector", mode)
					.forks(1)
					.build();
				for (RunResult result : new Runner(options).run()) {
					String benchmark = result.getParams().getBenchmark();
					scores
						.computeIfAbsent(benchmark.substring(benchmark.lastIndexOf('.') + 1),
								(k) -> new LinkedHashMap<>())
						.computeIfAbsent(mode, (k) -> new ArrayList<>())
						.add(result.getPrimaryResult().getScore());
				}
			}
		}
		print(scores, rounds);
	}

	private static void print(Map<String, Map<String, List<Double>>> scores, int rounds) {
		System.out.println();
		System.out.printf(Locale.ROOT,
				"Runtime storm detector, %d rounds alternating, one fork per mode and round (ns/op, lower is better)%n",
				rounds);
		System.out.printf(Locale.ROOT, "JVM: %s %s%n", System.getProperty("java.vm.name"),
				System.getProperty("java.version"));
		for (Map.Entry<String, Map<String, List<Double>>> benchmark : scores.entrySet()) {
			Map<String, List<Double>> byMode = benchmark.getValue();
			System.out.println();
			System.out.println("  " + benchmark.getKey());
			for (String mode : MODES) {
				List<Double> values = byMode.getOrDefault(mode, List.of());
				StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "    %-7s", mode));
				values.forEach((v) -> line.append(String.format(Locale.ROOT, " %9.2f", v)));
				line.append(String.format(Locale.ROOT, "   mean %9.2f", mean(values)));
				System.out.println(line);
			}
			List<Double> off = byMode.getOrDefault("off", List.of());
			double offMean = mean(off);
			double noise = (off.isEmpty()) ? Double.NaN
					: (off.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
							- off.stream().mapToDouble(Double::doubleValue).min().orElseThrow()) / offMean;
			for (String mode : List.of("on", "window")) {
				List<Double> values = byMode.getOrDefault(mode, List.of());
				List<Double> paired = new ArrayList<>();
				for (int i = 0; i < Math.min(values.size(), off.size()); i++) {
					paired.add(values.get(i) / off.get(i) - 1);
				}
				System.out.printf(Locale.ROOT, "    %-7s vs off: %+6.1f%% (means), per round %s%n", mode,
						100 * (mean(values) / offMean - 1),
						paired.stream().map((p) -> String.format(Locale.ROOT, "%+.1f%%", 100 * p)).toList());
			}
			System.out.printf(Locale.ROOT, "    noise band: the off forks alone spread %.1f%% (max - min over mean)%n",
					100 * noise);
		}
	}

	private static double mean(List<Double> values) {
		return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
	}

}
