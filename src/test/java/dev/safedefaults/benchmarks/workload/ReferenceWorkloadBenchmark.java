package dev.safedefaults.benchmarks.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The reference workload (issue 7): the packaged sample app in each mode in turn on this
 * machine, warmed up, then the same closed-loop load for the same time, fresh processes
 * one after the other, the modes in list order in odd rounds and in reverse order in even
 * rounds (A B B A …) so drift falls on every mode. Prints one table with req/s, p50/p99
 * latency, CPU per request, throwables per request, database statements per request and
 * the ratios, each ratio with its band from the lowest to the highest round (the noise
 * band); then the stalled-stdout scenario.
 * <p>
 * The downstream call goes through the OpenFeign client, or through the HTTP service
 * group {@code pricing} on Boot's {@code RestClient}
 * ({@code workload.client=http-service}: the app is started with
 * {@code --sample.pricing.client=http-service}; there the naive profile builds its
 * {@code RestClient} per request, the tuned profile configures the group's converters by
 * hand), or both ({@code workload.client=both}: every mode with each client kind,
 * interleaved in the same rounds). A run through the HTTP service client fails unless
 * Boot's {@code http.client.requests} counted one call per request, and one through Feign
 * unless it counted none.
 * <p>
 * Run: {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.ReferenceWorkloadBenchmark -Dbenchmark=}
 * (JVM options through {@code -Dbenchmark.jvm="-Dworkload.rounds=3 …"}:
 * {@code workload.rounds} (2), {@code workload.threads} (16),
 * {@code workload.warmup-seconds} (15), {@code workload.seconds} (20),
 * {@code workload.stall-seconds} (60; 0 leaves the stalled-stdout scenario out),
 * {@code workload.stall-modes} ({@code starter,naive,tuned}),
 * {@code workload.stall-jvm-args} (added to every stalled process, e.g.
 * {@code -Dlogging.level.org.springframework.web=DEBUG}), {@code workload.stall-compare}
 * (each mode also measured in a fresh process whose stdout is read; no flight recording
 * then), {@code workload.rounds=0} runs the stalled-stdout scenario alone,
 * {@code workload.modes} (comma-separated, {@code starter,naive,tuned,plain} by default),
 * {@code workload.client} ({@code feign}, {@code http-service} or {@code both}) change
 * the run).
 */
public final class ReferenceWorkloadBenchmark {

	private ReferenceWorkloadBenchmark() {
	}

	/**
	 * How the app calls the downstream pricing service ({@code sample.pricing.client}).
	 */
	enum Client {

		/** The OpenFeign client (the sample's default). */
		FEIGN("feign"),

		/** The HTTP service group {@code pricing} on Boot's {@code RestClient}. */
		HTTP_SERVICE("http-service");

		final String value;

		Client(String value) {
			this.value = value;
		}

		/** The application arguments that choose this client (none for the default). */
		List<String> appArgs() {
			return (this == FEIGN) ? List.of() : List.of("--sample.pricing.client=" + this.value);
		}

		static List<Client> parse(String value) {
			if (value.equals("both")) {
				return List.of(FEIGN, HTTP_SERVICE);
			}
			for (Client client : values()) {
				if (client.value.equals(value)) {
					return List.of(client);
				}
			}
			throw new IllegalArgumentException("workload.client: '" + value + "'; feign, http-service or both");
		}

	}

	/**
	 * One way to run the app: a mode and a client kind.
	 *
	 * @param mode the mode
	 * @param client the client kind
	 * @param label the name in the table
	 */
	record Variant(WorkloadMode mode, Client client, String label) {

		String commandLine() {
			return this.mode.commandLine()
					+ (this.client.appArgs().isEmpty() ? "" : " " + String.join(" ", this.client.appArgs()));
		}

	}

	static List<Variant> variants(List<WorkloadMode> modes, List<Client> clients) {
		List<Variant> variants = new ArrayList<>();
		for (WorkloadMode mode : modes) {
			for (Client client : clients) {
				String label = (clients.size() == 1) ? mode.label : mode.label + "/" + client.value;
				variants.add(new Variant(mode, client, label));
			}
		}
		return variants;
	}

	static List<WorkloadMode> modes(String labels) {
		List<WorkloadMode> modes = new ArrayList<>();
		for (String label : labels.split(",")) {
			modes.add(Arrays.stream(WorkloadMode.values())
				.filter((mode) -> mode.label.equals(label.strip()))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("workload.modes: no mode '" + label + "'; modes are "
						+ Arrays.stream(WorkloadMode.values()).map((mode) -> mode.label).toList())));
		}
		return modes;
	}

	public static void main(String[] args) throws Exception {
		int rounds = Integer.getInteger("workload.rounds", 2);
		int threads = Integer.getInteger("workload.threads", 16);
		Duration warmup = Duration.ofSeconds(Integer.getInteger("workload.warmup-seconds", 15));
		Duration duration = Duration.ofSeconds(Integer.getInteger("workload.seconds", 20));
		List<Client> clients = Client.parse(System.getProperty("workload.client", "feign"));
		List<Variant> variants = variants(modes(System.getProperty("workload.modes", "starter,naive,tuned,plain")),
				clients);
		System.out.printf(Locale.ROOT,
				"Reference workload: %d rounds (order reversed every other round), %d client threads, %ds warm-up, "
						+ "%ds measured per run, fresh process per run; JVM %s%n",
				rounds, threads, warmup.toSeconds(), duration.toSeconds(), System.getProperty("java.version"));
		for (Variant variant : variants) {
			System.out.printf("  %-21s %s%n", variant.label(), variant.commandLine());
		}
		Map<Variant, List<WorkloadRun.Figures>> runs = new LinkedHashMap<>();
		variants.forEach((variant) -> runs.put(variant, new ArrayList<>()));
		for (int round = 1; round <= rounds; round++) {
			List<Variant> order = new ArrayList<>(variants);
			if (round % 2 == 0) {
				Collections.reverse(order);
			}
			for (Variant variant : order) {
				System.out.printf("round %d/%d: %s ...%n", round, rounds, variant.label());
				WorkloadRun.Figures figures = measure(variant, round, threads, warmup, duration);
				checkClient(variant, figures);
				System.out.printf(Locale.ROOT,
						"  %.0f req/s, %.3f CPU ms/req, RestClient calls/req %.2f, statuses %s%n",
						figures.load().perSecond(), figures.cpuMillisPerRequest(),
						figures.restClientCalls() / (double) Math.max(1, figures.load().requests()),
						figures.load().byStatus());
				runs.get(variant).add(figures);
			}
		}
		if (rounds > 0) {
			printTable(runs);
			printRatios(runs, clients);
		}
		System.out.println();
		Duration stall = Duration.ofSeconds(Integer.getInteger("workload.stall-seconds", 60));
		if (stall.isZero()) {
			return;
		}
		// Every mode gets the starter's ring size, so the stall fills each buffer within
		// the run; with
		// Log4j's default of 262,144 slots the naive mode would only block after ~87,000
		// requests.
		List<String> sameRing = new ArrayList<>(List.of("-Dlog4j2.asyncLoggerConfigRingBufferSize=32768"));
		String stallJvmArgs = System.getProperty("workload.stall-jvm-args", "");
		if (!stallJvmArgs.isBlank()) {
			sameRing.addAll(List.of(stallJvmArgs.strip().split("\\s+")));
		}
		boolean compare = Boolean.getBoolean("workload.stall-compare");
		System.out.printf(
				"Stalled stdout: the app's stdout is a pipe nobody reads after warm-up, for %ds "
						+ "(async ring buffers of 32,768 slots in every mode%s)%s%n",
				stall.toSeconds(), stallJvmArgs.isBlank() ? "" : ", " + stallJvmArgs.strip(),
				compare ? "; each mode also in a fresh process whose stdout is read, for as long" : "");
		System.out.printf("%-8s %10s %12s %12s %14s %22s%s%n", "mode", "req/s", "answered", "no answer", "CPU ms/req",
				"discarded log events", compare ? "   read: req/s, CPU ms/req" : "");
		for (WorkloadMode mode : modes(System.getProperty("workload.stall-modes", "starter,naive,tuned"))) {
			String read = "";
			if (compare) {
				WorkloadRun.Figures figures = WorkloadRun.measure(mode, sameRing, mode.label + "-read", threads,
						Duration.ofSeconds(5), stall, false, false);
				read = String.format(Locale.ROOT, "   %.0f, %.3f", figures.load().perSecond(),
						figures.cpuMillisPerRequest());
			}
			// With -Dworkload.stall-compare, no flight recording in either process: it
			// costs CPU of its own.
			WorkloadRun.Figures figures = WorkloadRun.measure(mode, sameRing, mode.label + "-stalled", threads,
					Duration.ofSeconds(5), stall, true, !compare);
			LoadDriver.Result load = figures.load();
			System.out.printf(Locale.ROOT, "%-8s %10.0f %12d %12d %14.3f %22s%s%n", mode.label, load.perSecond(),
					load.requests(), load.answered(-1), figures.cpuMillisPerRequest(),
					(figures.discarded() < 0) ? "n/a (starter off)" : Long.toString(figures.discarded()), read);
		}
	}

	/**
	 * Measures one run; a process that does not start (on a shared machine, another build
	 * may be unpacking the embedded database's binaries at that moment) is tried twice
	 * more.
	 */
	private static WorkloadRun.Figures measure(Variant variant, int round, int threads, Duration warmup,
			Duration duration) throws Exception {
		String name = variant.label().replace('/', '-') + "-" + round;
		for (int attempt = 1;; attempt++) {
			try {
				return WorkloadRun.measure(variant.mode(), List.of(), variant.client().appArgs(), name, threads, warmup,
						duration, false, true);
			}
			catch (IllegalStateException ex) {
				if (attempt == 3) {
					throw ex;
				}
				System.out.printf("round %d %s did not start (attempt %d), trying again: %s%n", round, variant.label(),
						attempt, ex.getMessage().lines().findFirst().orElse(""));
			}
		}
	}

	/**
	 * The run went through the client it names: through the HTTP service client one
	 * {@code RestClient} call per answered request (a few more or fewer at the window's
	 * edges), through Feign none.
	 */
	static void checkClient(Variant variant, WorkloadRun.Figures figures) {
		long requests = figures.load().requests();
		long calls = figures.restClientCalls();
		// Requests in flight at the window's edges may be counted on one side only.
		boolean ok = (variant.client() == Client.FEIGN) ? calls == 0
				: Math.abs(calls - requests) <= requests * 0.05 + 64;
		if (!ok) {
			throw new IllegalStateException(variant.label() + ": " + calls + " RestClient calls for " + requests
					+ " requests; the run did not go through the " + variant.client().value + " client");
		}
	}

	static void printTable(Map<Variant, List<WorkloadRun.Figures>> runs) {
		System.out.println();
		System.out.printf("%-21s %9s %22s %8s %8s %11s %22s %12s %12s %s%n", "mode", "req/s", "req/s per round",
				"p50 ms", "p99 ms", "CPU ms/req", "CPU ms/req per round", "throwables", "statements", "non-200");
		runs.forEach((variant, list) -> {
			long nonOk = list.stream()
				.mapToLong((f) -> f.load()
					.byStatus()
					.entrySet()
					.stream()
					.filter((e) -> e.getKey() != 200)
					.mapToLong(Map.Entry::getValue)
					.sum())
				.sum();
			System.out.printf(Locale.ROOT, "%-21s %9.0f %22s %8.2f %8.2f %11.3f %22s %12.3f %12.2f %d%n",
					variant.label(), mean(list, (f) -> f.load().perSecond()),
					join(list, (f) -> f.load().perSecond(), "%.0f"),
					mean(list, (f) -> f.load().percentileMicros(0.50) / 1000.0),
					mean(list, (f) -> f.load().percentileMicros(0.99) / 1000.0),
					mean(list, WorkloadRun.Figures::cpuMillisPerRequest),
					join(list, WorkloadRun.Figures::cpuMillisPerRequest, "%.3f"),
					mean(list, WorkloadRun.Figures::throwablesPerRequest),
					mean(list, WorkloadRun.Figures::statementsPerRequest), nonOk);
		});
		runs.entrySet()
			.stream()
			.filter((e) -> e.getKey().mode() == WorkloadMode.STARTER)
			.forEach((e) -> e.getValue()
				.stream()
				.findFirst()
				.ifPresent((f) -> System.out.println("findings with the starter on, default profile, "
						+ e.getKey().client().value + ": " + f.findings())));
	}

	/**
	 * The ratios of the same round (the runs of one round are neighbours in time), their
	 * mean and the band from the lowest to the highest round: the starter against each
	 * other mode of the same client kind, in req/s (starter over the mode) and in CPU per
	 * request (the mode over the starter: how much more CPU a request costs it); with
	 * both client kinds, the HTTP service client against Feign in each mode.
	 */
	static void printRatios(Map<Variant, List<WorkloadRun.Figures>> runs, List<Client> clients) {
		System.out.println();
		System.out.println("ratios of the same round, mean (lowest-highest round):");
		for (Client client : clients) {
			Optional<Variant> found = find(runs, WorkloadMode.STARTER, client);
			if (found.isEmpty()) {
				continue;
			}
			Variant starter = found.get();
			for (Variant other : runs.keySet()) {
				if (other.client() == client && other.mode() != WorkloadMode.STARTER) {
					System.out.printf(Locale.ROOT, "  %-44s req/s %-20s CPU/req %s%n",
							starter.label() + " vs " + other.label(),
							band(ratios(runs.get(starter), runs.get(other), (f) -> f.load().perSecond())),
							band(ratios(runs.get(other), runs.get(starter), WorkloadRun.Figures::cpuMillisPerRequest)));
				}
			}
		}
		if (clients.size() > 1) {
			for (WorkloadMode mode : WorkloadMode.values()) {
				Optional<Variant> feignFound = find(runs, mode, Client.FEIGN);
				Optional<Variant> httpServiceFound = find(runs, mode, Client.HTTP_SERVICE);
				if (feignFound.isPresent() && httpServiceFound.isPresent()) {
					Variant feign = feignFound.get();
					Variant httpService = httpServiceFound.get();
					System.out.printf(Locale.ROOT, "  %-44s req/s %-20s CPU/req %s%n",
							httpService.label() + " vs " + feign.label(),
							band(ratios(runs.get(httpService), runs.get(feign), (f) -> f.load().perSecond())),
							band(ratios(runs.get(httpService), runs.get(feign),
									WorkloadRun.Figures::cpuMillisPerRequest)));
				}
			}
		}
		System.out.println("req/s: the first over the second; CPU/req: the second over the first, "
				+ "except http-service vs feign (http-service over feign in both)");
	}

	private static Optional<Variant> find(Map<Variant, List<WorkloadRun.Figures>> runs, WorkloadMode mode,
			Client client) {
		return runs.keySet().stream().filter((v) -> v.mode() == mode && v.client() == client).findFirst();
	}

	private static double[] ratios(List<WorkloadRun.Figures> over, List<WorkloadRun.Figures> under,
			ToDoubleFunction<WorkloadRun.Figures> value) {
		double[] ratios = new double[Math.min(over.size(), under.size())];
		for (int i = 0; i < ratios.length; i++) {
			ratios[i] = value.applyAsDouble(over.get(i)) / value.applyAsDouble(under.get(i));
		}
		return ratios;
	}

	private static String band(double[] ratios) {
		return String.format(Locale.ROOT, "%.2fx (%.2f-%.2f)", CostOfDefaultsBenchmark.mean(ratios),
				CostOfDefaultsBenchmark.min(ratios), CostOfDefaultsBenchmark.max(ratios));
	}

	private static double mean(List<WorkloadRun.Figures> list, ToDoubleFunction<WorkloadRun.Figures> value) {
		return list.stream().mapToDouble(value).average().orElse(Double.NaN);
	}

	private static String join(List<WorkloadRun.Figures> list, ToDoubleFunction<WorkloadRun.Figures> value,
			String format) {
		return list.stream()
			.map((f) -> String.format(Locale.ROOT, format, value.applyAsDouble(f)))
			.collect(Collectors.joining(" / "));
	}

}
