package dev.safedefaults.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs JMH with its own command line (the benchmarks profile passes {@code -Dbenchmark}),
 * then prints, for each benchmark class (and parameter set and thread count), every
 * method's cost next to the slowest and the fastest of its class: a benchmark compares
 * the starter, the anti-pattern and the best hand-written setup in one run, and the
 * ratios are what a reader compares with the incidents.
 */
public final class BenchmarkMain {

	private BenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		CommandLineOptions options = new CommandLineOptions(args);
		if (options.shouldHelp() || options.shouldList() || options.shouldListWithParams()
				|| options.shouldListProfilers() || options.shouldListResultFormats()) {
			org.openjdk.jmh.Main.main(args);
			return;
		}
		printRatios(new Runner(options).run(), System.out);
	}

	static void printRatios(Collection<RunResult> results, PrintStream out) {
		Map<String, List<RunResult>> groups = new LinkedHashMap<>();
		for (RunResult result : results) {
			groups.computeIfAbsent(groupOf(result.getParams()), (key) -> new ArrayList<>()).add(result);
		}
		for (Map.Entry<String, List<RunResult>> group : groups.entrySet()) {
			List<RunResult> members = new ArrayList<>(group.getValue());
			members.sort(Comparator.comparingDouble(BenchmarkMain::cost));
			double fastest = cost(members.get(0));
			double slowest = cost(members.get(members.size() - 1));
			out.println();
			out.println("Ratios: " + group.getKey());
			out.printf(Locale.ROOT, "  %-36s %14s %-10s %18s %16s%n", "benchmark", "score", "unit",
					"cheaper than slowest", "x the fastest");
			for (RunResult member : members) {
				Result<?> primary = member.getPrimaryResult();
				out.printf(Locale.ROOT, "  %-36s %14.3f %-10s %17.1fx %15.2fx%n", methodOf(member.getParams()),
						primary.getScore(), primary.getScoreUnit(), slowest / cost(member), cost(member) / fastest);
			}
		}
	}

	/** The cost of one operation, whatever the mode: lower is better. */
	private static double cost(RunResult result) {
		double score = result.getPrimaryResult().getScore();
		return (result.getParams().getMode() == Mode.Throughput) ? 1 / score : score;
	}

	private static String groupOf(BenchmarkParams params) {
		String benchmark = params.getBenchmark();
		StringBuilder key = new StringBuilder(benchmark.substring(0, benchmark.lastIndexOf('.')));
		for (String param : params.getParamsKeys()) {
			key.append(' ').append(param).append('=').append(params.getParam(param));
		}
		key.append(", ").append(params.getThreads()).append((params.getThreads() == 1) ? " thread" : " threads");
		key.append(", ").append(params.getMode().shortLabel());
		return key.toString();
	}

	private static String methodOf(BenchmarkParams params) {
		String benchmark = params.getBenchmark();
		return benchmark.substring(benchmark.lastIndexOf('.') + 1);
	}

}
