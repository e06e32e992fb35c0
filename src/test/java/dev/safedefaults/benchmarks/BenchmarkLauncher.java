package dev.safedefaults.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs JMH with its own command line, then prints ratios, so that one run compares the
 * starter with the anti-pattern and with the alternatives.
 * <p>
 * Convention: a benchmark method is named {@code <group>_<variant>}, for example
 * {@code decode_starter}, {@code decode_perCallConverters}. In every group (per class and
 * parameter values) that has a {@code starter} variant, the launcher prints
 * {@code starter / <variant>} for every other variant: above 1 means the starter is
 * faster (for throughput modes).
 */
public final class BenchmarkLauncher {

	private static final String REFERENCE = "starter";

	private BenchmarkLauncher() {
	}

	public static void main(String[] args) throws Exception {
		CommandLineOptions options = new CommandLineOptions(args);
		if (options.shouldHelp() || options.shouldList() || options.shouldListWithParams()
				|| options.shouldListProfilers() || options.shouldListResultFormats()) {
			org.openjdk.jmh.Main.main(args);
			return;
		}
		Collection<RunResult> results = new Runner(options).run();
		System.out.println();
		System.out.println("Ratios (" + REFERENCE + " / variant; JAXB on the class path: "
				+ isPresent("jakarta.xml.bind.Binder") + ")");
		for (String line : ratios(results)) {
			System.out.println(line);
		}
	}

	static List<String> ratios(Collection<RunResult> results) {
		Map<String, Map<String, Result<?>>> groups = new LinkedHashMap<>();
		for (RunResult run : results) {
			String benchmark = run.getParams().getBenchmark();
			String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
			int separator = method.indexOf('_');
			if (separator < 0) {
				continue;
			}
			String className = benchmark.substring(0, benchmark.lastIndexOf('.'));
			StringBuilder group = new StringBuilder(className.substring(className.lastIndexOf('.') + 1)).append('.')
				.append(method, 0, separator);
			for (String key : run.getParams().getParamsKeys()) {
				group.append(' ').append(key).append('=').append(run.getParams().getParam(key));
			}
			groups.computeIfAbsent(group.toString(), (name) -> new LinkedHashMap<>())
				.put(method.substring(separator + 1), run.getPrimaryResult());
		}
		List<String> lines = new ArrayList<>();
		groups.forEach((group, variants) -> {
			Result<?> reference = variants.get(REFERENCE);
			if (reference == null) {
				return;
			}
			lines.add(group + ": " + REFERENCE + " = " + format(reference));
			variants.forEach((variant, result) -> {
				if (!variant.equals(REFERENCE)) {
					lines.add(String.format(Locale.ROOT, "  %s / %-20s = %8.2f×   (%s = %s)", REFERENCE, variant,
							reference.getScore() / result.getScore(), variant, format(result)));
				}
			});
		});
		return lines;
	}

	private static String format(Result<?> result) {
		return String.format(Locale.ROOT, "%,.0f ± %,.0f %s", result.getScore(), result.getScoreError(),
				result.getScoreUnit());
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, BenchmarkLauncher.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

}
