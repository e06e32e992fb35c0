package dev.safedefaults.benchmarks.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import dev.safedefaults.system.SampleAppProcess;
import tools.jackson.databind.json.JsonMapper;

/**
 * An error storm against the packaged sample app (incident 6, issue 9): a closed-loop
 * load in which every other request asks for {@code fail=true} (the downstream answers
 * 500, the app logs an ERROR with Feign's exception and answers 502), with the starter's
 * stack-trace throttling on ({@code %throttledEx}, the default) and off
 * ({@code --safe-defaults.logging.stack-traces.enabled=false}: Boot's {@code %xwEx},
 * every trace in full).
 * <p>
 * Two log consumers: stdout written to a file (a fast disk), and stdout a pipe read no
 * faster than a log shipper that manages {@code storm.shipper-kb-per-second} (default
 * 1,024 KB/s). Printed per run: log bytes per error (the storm's ERROR events, their
 * trace lines included), CPU of Log4j's background thread, the ring buffer's backlog
 * every second during the storm and after it, how long after the storm's end the backlog
 * reaches zero, the requests' p50/p99, INFO events discarded (the ring was full: a
 * request thread logging an ERROR then waits) and the ERROR events written against the
 * 502 answers (none lost).
 * <p>
 * The warm-up sends no failing request, so the first traces of each kind fall into the
 * storm (with {@code %throttledEx} three per kind are printed in full).
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.ErrorStormBenchmark -Dbenchmark=}
 * (JVM options through {@code -Dbenchmark.jvm="-Dstorm.seconds=60"}:
 * {@code storm.threads}, {@code storm.warmup-seconds}, {@code storm.seconds},
 * {@code storm.catch-up-seconds}, {@code storm.shipper-kb-per-second}).
 */
public final class ErrorStormBenchmark {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final Pattern EVENT_START = Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}");

	private static final String ERROR_MESSAGE = "Pricing failed for order";

	private static final Duration SAMPLE_EVERY = Duration.ofMillis(250);

	private ErrorStormBenchmark() {
	}

	/** How the app's stdout is consumed. */
	private record Consumer(String label, long bytesPerSecond) {
	}

	/** One sample of the app while the storm runs or drains. */
	private record Sample(double atSeconds, long backlog, long logThreadCpuMillis, long stdoutBytes) {
	}

	/** What one run measured. */
	private record Run(String consumer, String renderer, LoadDriver.Result load, List<Sample> samples,
			double catchUpSeconds, long maxBacklog, long discarded, LogFigures log) {
	}

	/**
	 * The storm's part of the log.
	 *
	 * @param errors ERROR events of the storm written
	 * @param errorBytes their bytes, trace lines included
	 * @param fullTraces those with frame lines
	 * @param allBytes every byte the storm's part of the log holds
	 */
	private record LogFigures(long errors, long errorBytes, long fullTraces, long allBytes) {

		double bytesPerError() {
			return (this.errors == 0) ? 0 : this.errorBytes / (double) this.errors;
		}

	}

	public static void main(String[] args) throws Exception {
		int threads = Integer.getInteger("storm.threads", 16);
		Duration warmup = Duration.ofSeconds(Integer.getInteger("storm.warmup-seconds", 15));
		Duration storm = Duration.ofSeconds(Integer.getInteger("storm.seconds", 30));
		Duration catchUpLimit = Duration.ofSeconds(Integer.getInteger("storm.catch-up-seconds", 60));
		long shipper = Long.getLong("storm.shipper-kb-per-second", 1024) * 1024;
		System.out.printf(Locale.ROOT,
				"Error storm: %d client threads, %ds warm-up without failures, %ds storm with every other request fail=true, "
						+ "catch-up watched up to %ds; JVM %s%n",
				threads, warmup.toSeconds(), storm.toSeconds(), catchUpLimit.toSeconds(),
				System.getProperty("java.version"));
		List<Run> runs = new ArrayList<>();
		for (Consumer consumer : List.of(new Consumer("file", 0),
				new Consumer(String.format(Locale.ROOT, "pipe %d KB/s", shipper / 1024), shipper))) {
			for (boolean throttled : List.of(false, true)) {
				runs.add(run(consumer, throttled, threads, warmup, storm, catchUpLimit));
			}
		}
		print(runs);
	}

	private static Run run(Consumer consumer, boolean throttled, int threads, Duration warmup, Duration storm,
			Duration catchUpLimit) throws Exception {
		String renderer = throttled ? "%throttledEx" : "full (%xwEx)";
		String name = "storm-" + (consumer.bytesPerSecond() > 0 ? "pipe" : "file") + "-" + (throttled ? "on" : "off");
		System.out.printf("%s, stdout to %s ...%n", renderer, consumer.label());
		List<String> appArgs = throttled ? List.of() : List.of("--safe-defaults.logging.stack-traces.enabled=false");
		SampleAppProcess started = (consumer.bytesPerSecond() > 0)
				? SampleAppProcess.startWithSlowStdout(name, List.of(), appArgs, consumer.bytesPerSecond())
				: SampleAppProcess.start(name, List.of(), appArgs);
		try (SampleAppProcess app = started) {
			if (!app.isAlive()) {
				throw new IllegalStateException(name + " did not start:\n" + app.log());
			}
			LoadDriver driver = new LoadDriver();
			// Warm-up without failures: a slow pipe would still be draining a warm-up
			// storm when the
			// measured one starts. So the first traces of each kind fall into the storm.
			driver.run(app.baseUrl(), threads, warmup, Long.MAX_VALUE);
			long capacity = awaitDrained(app, Duration.ofMinutes(2));
			long discardedBefore = discarded(app);
			long logOffset = Files.size(app.stdoutFile());
			long cpuBefore = logThreadCpuMillis(app);
			List<Sample> samples = new ArrayList<>();
			long start = System.nanoTime();
			AtomicBoolean sampling = new AtomicBoolean(true);
			Thread sampler = new Thread(() -> {
				while (sampling.get()) {
					samples.add(sample(app, capacity, start, cpuBefore, logOffset));
					try {
						Thread.sleep(SAMPLE_EVERY.toMillis());
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			}, "storm-sampler");
			sampler.start();
			LoadDriver.Result load = driver.run(app.baseUrl(), threads, storm, Long.MAX_VALUE,
					ErrorStormBenchmark::stormPath);
			double stormEnd = (System.nanoTime() - start) / 1e9;
			double drainedAt = Double.NaN;
			long deadline = System.nanoTime() + catchUpLimit.toNanos();
			while (System.nanoTime() < deadline) {
				if (backlog(app, capacity) == 0) {
					drainedAt = (System.nanoTime() - start) / 1e9;
					break;
				}
				Thread.sleep(50);
			}
			// One more second of samples after the drain, so the table shows the quiet.
			Thread.sleep(1000);
			sampling.set(false);
			sampler.join();
			long discarded = discarded(app) - discardedBefore;
			long maxBacklog = samples.stream().mapToLong(Sample::backlog).max().orElse(0);
			app.close();
			LogFigures log = logFigures(app.stdoutFile(), logOffset);
			return new Run(consumer.label(), renderer, load, List.copyOf(samples),
					Double.isNaN(drainedAt) ? Double.NaN : Math.max(0, drainedAt - stormEnd), maxBacklog, discarded,
					log);
		}
	}

	/** Every other request fails; the order ids cycle through the three orders. */
	private static String stormPath(long i) {
		return "/api/orders/" + (1 + (i % 3)) + ((i % 2 == 0) ? "?fail=true" : "");
	}

	private static Sample sample(SampleAppProcess app, long capacity, long start, long cpuBefore, long logOffset) {
		long backlog = backlog(app, capacity);
		long cpu = logThreadCpuMillis(app) - cpuBefore;
		long bytes;
		try {
			bytes = Files.size(app.stdoutFile()) - logOffset;
		}
		catch (IOException ex) {
			bytes = -1;
		}
		return new Sample((System.nanoTime() - start) / 1e9, backlog, cpu, bytes);
	}

	/**
	 * Waits until the ring buffer's free slots stop rising; returns them (its capacity).
	 */
	private static long awaitDrained(SampleAppProcess app, Duration limit) throws InterruptedException {
		long deadline = System.nanoTime() + limit.toNanos();
		long best = -1;
		int stable = 0;
		while (System.nanoTime() < deadline && stable < 10) {
			long remaining = remaining(app);
			stable = (remaining == best) ? stable + 1 : 0;
			best = Math.max(best, remaining);
			Thread.sleep(100);
		}
		return best;
	}

	private static long backlog(SampleAppProcess app, long capacity) {
		long remaining = remaining(app);
		return (remaining < 0) ? -1 : capacity - remaining;
	}

	private static long remaining(SampleAppProcess app) {
		return metric(app, "safedefaults.logging.ring-buffer.remaining");
	}

	private static long discarded(SampleAppProcess app) {
		return metric(app, "safedefaults.logging.discarded");
	}

	private static long metric(SampleAppProcess app, String name) {
		var response = app.get("/actuator/metrics/" + name);
		if (response.statusCode() != 200) {
			return -1;
		}
		return (long) json.readTree(response.body()).path("measurements").path(0).path("value").asDouble();
	}

	/**
	 * CPU time of Log4j's background threads ({@code Log4j2-TF-…}); {@code -1} without
	 * {@code /proc}.
	 */
	private static long logThreadCpuMillis(SampleAppProcess app) {
		Map<String, Long> byName = ThreadCpu.millisByName(app.handle());
		return byName.isEmpty() ? -1 : ThreadCpu.millisOf(byName, "Log4j2-TF-");
	}

	private static LogFigures logFigures(Path stdout, long offset) throws IOException {
		byte[] all = Files.readAllBytes(stdout);
		String storm = new String(all, (int) Math.min(offset, all.length), (int) Math.max(0, all.length - offset),
				StandardCharsets.UTF_8);
		List<String> events = new ArrayList<>();
		StringBuilder event = new StringBuilder();
		for (String line : storm.split("\n", -1)) {
			if (EVENT_START.matcher(line).find() && !event.isEmpty()) {
				events.add(event.toString());
				event.setLength(0);
			}
			event.append(line).append('\n');
		}
		events.add(event.toString());
		long errors = 0;
		long errorBytes = 0;
		long fullTraces = 0;
		for (String text : events) {
			if (text.contains(ERROR_MESSAGE)) {
				errors++;
				errorBytes += text.getBytes(StandardCharsets.UTF_8).length;
				fullTraces += text.contains("\n\tat ") ? 1 : 0;
			}
		}
		return new LogFigures(errors, errorBytes, fullTraces, all.length - offset);
	}

	private static void print(List<Run> runs) {
		for (Run run : runs) {
			System.out.println();
			System.out.printf("%s, stdout to %s: backlog (events in the ring) and Log4j thread CPU per second%n",
					run.renderer(), run.consumer());
			System.out.printf("%8s %10s %12s %14s%n", "t (s)", "backlog", "log CPU ms", "stdout KB");
			long lastCpu = 0;
			double nextRow = 0;
			for (Sample sample : run.samples()) {
				if (sample.atSeconds() + 1e-9 < nextRow) {
					continue;
				}
				nextRow = Math.floor(sample.atSeconds()) + 1;
				System.out.printf(Locale.ROOT, "%8.1f %10d %12d %14d%n", sample.atSeconds(), sample.backlog(),
						sample.logThreadCpuMillis() - lastCpu, sample.stdoutBytes() / 1024);
				lastCpu = sample.logThreadCpuMillis();
			}
		}
		System.out.println();
		System.out.println("Summary (storm: every other request fails; an ERROR with Feign's exception per failure)");
		System.out.printf("%-14s %-14s %8s %8s %8s %8s %10s %10s %11s %12s %10s %10s%n", "stdout", "renderer", "req/s",
				"p50 ms", "p99 ms", "502s", "errors", "full", "B/error", "log CPU ms", "max backlog", "catch-up s");
		for (Run run : runs) {
			System.out.printf(Locale.ROOT, "%-14s %-14s %8.0f %8.2f %8.2f %8d %10d %10d %11.0f %12d %10d %10s%n",
					run.consumer(), run.renderer(), run.load().perSecond(), run.load().percentileMicros(0.50) / 1000.0,
					run.load().percentileMicros(0.99) / 1000.0, run.load().answered(502), run.log().errors(),
					run.log().fullTraces(), run.log().bytesPerError(), lastCpu(run), run.maxBacklog(),
					Double.isNaN(run.catchUpSeconds()) ? "not drained"
							: String.format(Locale.ROOT, "%.2f", run.catchUpSeconds()));
			System.out.printf(Locale.ROOT, "%-14s %-14s INFO discarded during the storm: %d%s%n", "", "",
					run.discarded(),
					(run.discarded() > 0) ? " (the ring was full: request threads logging an ERROR waited)"
							: " (the ring never filled: no request thread waited on logging)");
		}
		for (int i = 0; i + 1 < runs.size(); i += 2) {
			Run off = runs.get(i);
			Run on = runs.get(i + 1);
			System.out.printf(Locale.ROOT,
					"stdout to %s: log bytes per error %.0f -> %.0f (%.1fx fewer); Log4j thread CPU %d -> %d ms; "
							+ "p99 %.2f -> %.2f ms; req/s %.0f -> %.0f%n",
					off.consumer(), off.log().bytesPerError(), on.log().bytesPerError(),
					off.log().bytesPerError() / Math.max(1, on.log().bytesPerError()), lastCpu(off), lastCpu(on),
					off.load().percentileMicros(0.99) / 1000.0, on.load().percentileMicros(0.99) / 1000.0,
					off.load().perSecond(), on.load().perSecond());
		}
		System.out
			.println("(502s vs errors: the ERROR events written for the storm's failures; equal when none is lost. "
					+ "With a slow pipe, events still queued when the app stops are not in the file.)");
	}

	private static long lastCpu(Run run) {
		return run.samples().isEmpty() ? -1 : run.samples().get(run.samples().size() - 1).logThreadCpuMillis();
	}

}
