package dev.safedefaults.benchmarks.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The reference workload (issue 7): the packaged sample app in each mode in turn on this
 * machine, warmed up, then the same closed-loop load for the same time, the modes
 * alternating round after round so drift cancels out. Prints one table with req/s,
 * p50/p99 latency, CPU per request, throwables per request, database statements per
 * request and the ratios; then the stalled-stdout scenario.
 * <p>
 * Run: {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.ReferenceWorkloadBenchmark -Dbenchmark=}
 * (JVM options through {@code -Dbenchmark.jvm="-Dworkload.rounds=3 …"}:
 * {@code workload.rounds}, {@code workload.threads}, {@code workload.warmup-seconds},
 * {@code workload.seconds}, {@code workload.stall-seconds} change the run).
 */
public final class ReferenceWorkloadBenchmark {

	private ReferenceWorkloadBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = Integer.getInteger("workload.rounds", 2);
		int threads = Integer.getInteger("workload.threads", 16);
		Duration warmup = Duration.ofSeconds(Integer.getInteger("workload.warmup-seconds", 15));
		Duration duration = Duration.ofSeconds(Integer.getInteger("workload.seconds", 20));
		System.out.printf("Reference workload: %d rounds, %d client threads, %ds warm-up, %ds measured per mode%n",
				rounds, threads, warmup.toSeconds(), duration.toSeconds());
		for (WorkloadMode mode : WorkloadMode.values()) {
			System.out.printf("  %-8s %s%n", mode.label, mode.commandLine());
		}
		Map<WorkloadMode, List<WorkloadRun.Figures>> runs = new EnumMap<>(WorkloadMode.class);
		for (int round = 1; round <= rounds; round++) {
			for (WorkloadMode mode : WorkloadMode.values()) {
				System.out.printf("round %d/%d: %s ...%n", round, rounds, mode.label);
				WorkloadRun.Figures figures = WorkloadRun.measure(mode, mode.label + "-" + round, threads, warmup,
						duration, false);
				System.out.printf("  %.0f req/s, statuses %s%n", figures.load().perSecond(), figures.load().byStatus());
				runs.computeIfAbsent(mode, (m) -> new ArrayList<>()).add(figures);
			}
		}
		printTable(runs);
		System.out.println();
		Duration stall = Duration.ofSeconds(Integer.getInteger("workload.stall-seconds", 60));
		// Every mode gets the starter's ring size, so the stall fills each buffer within
		// the run; with
		// Log4j's default of 262,144 slots the naive mode would only block after ~87,000
		// requests.
		List<String> sameRing = List.of("-Dlog4j2.asyncLoggerConfigRingBufferSize=32768");
		System.out.printf("Stalled stdout: the app's stdout is a pipe nobody reads after warm-up, for %ds "
				+ "(async ring buffers of 32,768 slots in every mode)%n", stall.toSeconds());
		System.out.printf("%-8s %10s %12s %12s %s%n", "mode", "req/s", "answered", "no answer", "discarded log events");
		for (WorkloadMode mode : List.of(WorkloadMode.STARTER, WorkloadMode.NAIVE, WorkloadMode.TUNED)) {
			WorkloadRun.Figures figures = WorkloadRun.measure(mode, sameRing, mode.label + "-stalled", threads,
					Duration.ofSeconds(5), stall, true);
			LoadDriver.Result load = figures.load();
			System.out.printf("%-8s %10.0f %12d %12d %s%n", mode.label, load.perSecond(), load.requests(),
					load.answered(-1), (figures.discarded() < 0) ? "n/a (starter off)" : figures.discarded());
		}
	}

	static void printTable(Map<WorkloadMode, List<WorkloadRun.Figures>> runs) {
		System.out.println();
		System.out.printf("%-8s %9s %22s %8s %8s %11s %12s %12s %s%n", "mode", "req/s", "req/s per round", "p50 ms",
				"p99 ms", "CPU ms/req", "throwables", "statements", "non-200");
		Map<WorkloadMode, Double> rate = new EnumMap<>(WorkloadMode.class);
		runs.forEach((mode, list) -> {
			double perSecond = list.stream().mapToDouble((f) -> f.load().perSecond()).average().orElse(0);
			rate.put(mode, perSecond);
			String perRound = list.stream()
				.map((f) -> String.format("%.0f", f.load().perSecond()))
				.collect(Collectors.joining(" / "));
			long nonOk = list.stream()
				.mapToLong((f) -> f.load()
					.byStatus()
					.entrySet()
					.stream()
					.filter((e) -> e.getKey() != 200)
					.mapToLong(Map.Entry::getValue)
					.sum())
				.sum();
			System.out.printf("%-8s %9.0f %22s %8.2f %8.2f %11.2f %12.3f %12.2f %d%n", mode.label, perSecond, perRound,
					list.stream().mapToDouble((f) -> f.load().percentileMicros(0.50) / 1000.0).average().orElse(0),
					list.stream().mapToDouble((f) -> f.load().percentileMicros(0.99) / 1000.0).average().orElse(0),
					list.stream().mapToDouble(WorkloadRun.Figures::cpuMillisPerRequest).average().orElse(0),
					list.stream().mapToDouble(WorkloadRun.Figures::throwablesPerRequest).average().orElse(0),
					list.stream().mapToDouble(WorkloadRun.Figures::statementsPerRequest).average().orElse(0), nonOk);
		});
		double starter = rate.getOrDefault(WorkloadMode.STARTER, 0.0);
		System.out.printf("ratios (req/s): starter/naive %.2fx, starter/tuned %.2fx, starter/plain %.2fx%n",
				starter / rate.getOrDefault(WorkloadMode.NAIVE, Double.NaN),
				starter / rate.getOrDefault(WorkloadMode.TUNED, Double.NaN),
				starter / rate.getOrDefault(WorkloadMode.PLAIN, Double.NaN));
		runs.getOrDefault(WorkloadMode.STARTER, List.of())
			.stream()
			.findFirst()
			.ifPresent((f) -> System.out.println("findings with the starter on, default profile: " + f.findings()));
	}

}
