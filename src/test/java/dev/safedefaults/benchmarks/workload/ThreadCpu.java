package dev.safedefaults.benchmarks.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of another process's threads by name, from Linux's per-thread accounting
 * ({@code /proc/PID/task/TID}): the name is the kernel's copy, cut to 15 characters
 * ({@code Log4j2-TF-1-Asy}, {@code JFR Periodic Ta}). Empty where there is no
 * {@code /proc}.
 */
final class ThreadCpu {

	/** Linux reports thread times in clock ticks of 1/100 s (USER_HZ). */
	private static final long MILLIS_PER_TICK = 10;

	private ThreadCpu() {
	}

	/**
	 * The CPU each thread name has used so far, threads of the same name summed.
	 * @param process the process
	 * @return milliseconds of user and system time by thread name
	 */
	static Map<String, Long> millisByName(ProcessHandle process) {
		Map<String, Long> byName = new TreeMap<>();
		Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
		if (!Files.isDirectory(tasks)) {
			return byName;
		}
		try (Stream<Path> threads = Files.list(tasks)) {
			for (Path thread : threads.toList()) {
				try {
					String name = Files.readString(thread.resolve("comm")).strip();
					String stat = Files.readString(thread.resolve("stat"));
					// The fields after the name's closing parenthesis start at field 3
					// (state);
					// utime and stime are fields 14 and 15.
					String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
					long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
					byName.merge(name, ticks * MILLIS_PER_TICK, Long::sum);
				}
				catch (IOException ex) {
					// the thread has ended
				}
			}
		}
		catch (IOException ex) {
			// the process has ended
		}
		return byName;
	}

	/**
	 * CPU of the threads whose names start with a prefix.
	 * @param byName CPU by thread name
	 * @param prefix the prefix
	 * @return their milliseconds summed
	 */
	static long millisOf(Map<String, Long> byName, String prefix) {
		return byName.entrySet()
			.stream()
			.filter((e) -> e.getKey().startsWith(prefix))
			.mapToLong(Map.Entry::getValue)
			.sum();
	}

	/**
	 * A thread's group: its name without the number that tells the group's threads apart
	 * ({@code http-nio-8080-exec-12} and {@code C2 CompilerThre} stay apart,
	 * {@code http-nio-8080-exec} collects the request threads).
	 * @param threadName the kernel's thread name
	 * @return the group
	 */
	static String group(String threadName) {
		return threadName.replaceAll("[-#]\\d+.*$", "").strip();
	}

	/**
	 * CPU by thread group.
	 * @param byName CPU by thread name
	 * @return milliseconds by {@link #group(String) group}
	 */
	static Map<String, Long> byGroup(Map<String, Long> byName) {
		Map<String, Long> groups = new TreeMap<>();
		byName.forEach((name, millis) -> groups.merge(group(name), millis, Long::sum));
		return groups;
	}

	/**
	 * What each thread name used between two readings.
	 * @param before the earlier reading
	 * @param after the later reading
	 * @return milliseconds by thread name
	 */
	static Map<String, Long> between(Map<String, Long> before, Map<String, Long> after) {
		Map<String, Long> delta = new TreeMap<>();
		after.forEach((name, millis) -> delta.put(name, millis - before.getOrDefault(name, 0L)));
		return delta;
	}

	/**
	 * Prints CPU per request by thread group, one row per mode: a column for each group
	 * that takes at least 2% of some mode's CPU, and "other" for the rest.
	 * @param microsByMode µs per request by group, per mode, in print order
	 * @param totalByMode each mode's CPU per request in µs, the base of the 2%
	 */
	static void printMicrosPerRequest(Map<String, Map<String, Double>> microsByMode, Map<String, Double> totalByMode) {
		Set<String> shown = new LinkedHashSet<>();
		microsByMode.forEach((mode, groups) -> groups.forEach((group, value) -> {
			if (value >= 0.02 * totalByMode.get(mode)) {
				shown.add(group);
			}
		}));
		StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-34s", "mode"));
		shown.forEach((group) -> header.append(String.format(Locale.ROOT, " %15.15s", group)));
		header.append(String.format(Locale.ROOT, " %15s", "other"));
		System.out.println(header);
		microsByMode.forEach((mode, groups) -> {
			StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-34s", mode));
			shown.forEach(
					(group) -> line.append(String.format(Locale.ROOT, " %15.0f", groups.getOrDefault(group, 0.0))));
			double other = groups.entrySet()
				.stream()
				.filter((e) -> !shown.contains(e.getKey()))
				.mapToDouble(Map.Entry::getValue)
				.sum();
			line.append(String.format(Locale.ROOT, " %15.0f", other));
			System.out.println(line);
		});
	}

}
