package dev.safedefaults.benchmarks.logging;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * {@link StackTraceRenderingBenchmark}'s renderings measured in CPU time of the rendering
 * thread rather than in wall time: on a shared machine whose other processes keep every
 * core busy, JMH's wall-time scores carry errors larger than themselves, while the
 * thread's own CPU time stays comparable. Rounds alternate the renderings; the median
 * round is printed.
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.logging.StackTraceRenderingCpuTime -Dbenchmark=20000}
 */
public final class StackTraceRenderingCpuTime {

	private static final int ROUNDS = 7;

	private StackTraceRenderingCpuTime() {
	}

	public static void main(String[] args) {
		int events = (args.length > 0 && args[0].matches("\\d+")) ? Integer.parseInt(args[0]) : 20_000;
		StackTraceRenderingBenchmark benchmark = new StackTraceRenderingBenchmark();
		benchmark.setUp();
		Map<String, LongSupplier> renderings = new LinkedHashMap<>();
		renderings.put("%xwEx (Boot)", benchmark::bootXwEx);
		renderings.put("%throttledEx, first of a kind", benchmark::starterThrottledExFirstOfAKind);
		renderings.put("%throttledEx, first of a kind, credentials",
				benchmark::starterThrottledExFirstOfAKindWithCredentials);
		renderings.put("%throttledEx, a repeat", benchmark::starterThrottledEx);
		renderings.put("%xwEx{1}", benchmark::handWrittenHeaderOnly);
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		Map<String, long[]> rounds = new LinkedHashMap<>();
		renderings.keySet().forEach((name) -> rounds.put(name, new long[ROUNDS]));
		long sink = 0;
		// One warm-up round, not recorded.
		for (int round = -1; round < ROUNDS; round++) {
			for (Map.Entry<String, LongSupplier> rendering : renderings.entrySet()) {
				long start = threads.getCurrentThreadCpuTime();
				for (int i = 0; i < events; i++) {
					sink += rendering.getValue().getAsLong();
				}
				long cpu = threads.getCurrentThreadCpuTime() - start;
				if (round >= 0) {
					rounds.get(rendering.getKey())[round] = cpu / events;
				}
			}
		}
		System.out.printf(Locale.ROOT, "%nCPU ns per event, median of %d rounds of %,d events (sink %d)%n", ROUNDS,
				events, sink % 10);
		rounds.forEach((name, perEvent) -> {
			long[] sorted = perEvent.clone();
			java.util.Arrays.sort(sorted);
			System.out.printf(Locale.ROOT, "| %s | %,d | %,d–%,d |%n", name, sorted[ROUNDS / 2], sorted[0],
					sorted[ROUNDS - 1]);
		});
	}

}
