package dev.safedefaults.benchmarks.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.safedefaults.system.SampleAppProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 52: what the reactive stuck-request watch costs a healthy WebFlux service, with
 * the method of the cost table ({@link InterleavedRun}: fresh processes, each warmed up
 * alone, then the load moved between them in short windows, A B B A ..., with the A/A
 * control of the first mode). The service is the {@code boot41-webflux} consumer build's
 * jar (Boot 4.1, Reactor Netty, the starter), which {@code ./mvnw verify} packages; its
 * {@code GET /hello} answers a constant string on the event loop, so the watch's share of
 * a request is as large as it can be on a real handler. Modes:
 * <ul>
 * <li>{@code watch off} ({@code safe-defaults.stuck-requests.enabled=false}): no web
 * filter, no heartbeat, no watch thread: what a service without the watch pays (the best
 * hand-written setup is no watch: a watch is what is bought);</li>
 * <li>{@code defaults}: the exchange filter and the event loops' heartbeats;</li>
 * <li>{@code event loops off}
 * ({@code safe-defaults.stuck-requests.event-loop.enabled=false}): the exchange filter
 * alone, to split the two.</li>
 * </ul>
 * Each process is checked: what the starter reports for {@code stuck-requests}. Run after
 * {@code ./mvnw -B verify} (or {@code ./mvnw -B verify -pl consumer-tests -am
 * -DskipTests}, which still builds the consumer projects) with
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.workload.WebFluxWatchCostBenchmark
 * -Dbenchmark=} (JVM options through {@code -Dbenchmark.jvm}: {@code webflux.jar} (the
 * benchmarks profile gives the consumer build's jar under
 * {@code consumer-tests/target/consumers}), {@code webflux.threads} (16),
 * {@code webflux.warmup-seconds} (20), {@code webflux.window-seconds} (3),
 * {@code webflux.cycles} (12), {@code interleaved.sets} (1)).
 */
public final class WebFluxWatchCostBenchmark {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * A way to run the service.
	 *
	 * @param label its name in the table
	 * @param jvmArgs its switches
	 */
	record Mode(String label, List<String> jvmArgs) {
	}

	static final List<Mode> MODES = List.of(
			new Mode("watch off", List.of("-Dsafe-defaults.stuck-requests.enabled=false")),
			new Mode("defaults", List.of()),
			new Mode("event loops off", List.of("-Dsafe-defaults.stuck-requests.event-loop.enabled=false")));

	private WebFluxWatchCostBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		String property = System.getProperty("webflux.jar");
		if (property == null) {
			throw new IllegalStateException("-Dwebflux.jar is not set: run through the benchmarks profile");
		}
		Path jar = Path.of(property);
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("The WebFlux consumer jar is missing (" + jar.toAbsolutePath()
					+ "): run ./mvnw -B verify -pl consumer-tests -am -DskipTests first, or set -Dwebflux.jar");
		}
		List<InterleavedRun.Target> targets = new ArrayList<>();
		for (Mode mode : MODES) {
			targets.add(new InterleavedRun.Target(mode.label(), jar, mode.jvmArgs(),
					List.of("--safe-defaults.health.show-details=always"), WebFluxWatchCostBenchmark::check));
		}
		Map<String, double[]> ratios = InterleavedRun.run("Reactive stuck-request watch (issue 52), GET /hello",
				targets, (i) -> "/hello", Integer.getInteger("webflux.threads", 16),
				Duration.ofSeconds(Integer.getInteger("webflux.warmup-seconds", 20)),
				Duration.ofSeconds(Integer.getInteger("webflux.window-seconds", 3)),
				Integer.getInteger("webflux.cycles", 12));
		double[] defaults = ratios.get("defaults");
		if (defaults != null) {
			System.out.printf(Locale.ROOT,
					"%nThe watch on (defaults) against off: %.3f× the CPU per request (± %.3f standard error); "
							+ "read against the A/A row above%n",
					defaults[0], defaults[1]);
		}
	}

	/** What the starter reports for {@code stuck-requests} in that process. */
	private static String check(SampleAppProcess app) {
		JsonNode feature = SampleAppProcess.feature(JSON.readTree(app.get("/actuator/safedefaults").body()),
				"stuck-requests");
		return "stuck-requests " + (feature.path("enabled").asBoolean() ? "on: " : "off: ") + feature.path("appliedTo");
	}

}
