package dev.safedefaults.benchmarks.stuckrequests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.testsupport.SilentDownstream;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.JettyClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;

/**
 * Issue 44, point 3: does a client a user builds by hand, with Spring's request
 * factories' defaults, read a JVM-wide default that would bound a downstream that accepts
 * and never answers? For each client, in a fresh JVM (a JVM reads such defaults once),
 * one call to a loopback server that accepts and never answers, without and with
 * {@code -Dsun.net.client.defaultReadTimeout=2000 -Dsun.net.client.defaultConnectTimeout=2000};
 * the probe gives up after 240 s ({@code -Dprobe.give-up-seconds}: longer than Apache
 * HttpClient 5's default of 3 minutes, so that no bound is missed). Prints a table of
 * what ended each call and when (docs/stuck-requests.md). Run with the benchmarks
 * profile: {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.stuckrequests.HandBuiltClientSilenceProbe
 * -Dbenchmark=} (every probe runs at once: about 4 minutes).
 */
public final class HandBuiltClientSilenceProbe {

	/** How long a call may wait; {@code -Dprobe.give-up-seconds} (240 unless set). */
	private static final int GIVE_UP_SECONDS = Integer.getInteger("probe.give-up-seconds", 240);

	private static final List<String> ALL_CLIENTS = List.of("simple", "simple-property-set-late", "jdk",
			"apache-system", "jetty", "reactor-netty");

	/**
	 * The clients probed; {@code -Dprobe.clients=jdk,jetty} for some (all unless set).
	 */
	private static final List<String> CLIENTS = List
		.of(System.getProperty("probe.clients", String.join(",", ALL_CLIENTS)).split(","));

	private static final List<String> SUN_NET_DEFAULTS = List.of("-Dsun.net.client.defaultReadTimeout=2000",
			"-Dsun.net.client.defaultConnectTimeout=2000");

	private HandBuiltClientSilenceProbe() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 2) {
			callOnce(args[0], URI.create(args[1]));
			return;
		}
		System.out.printf(Locale.ROOT, "Java %s; each call given up after %d s%n", System.getProperty("java.version"),
				GIVE_UP_SECONDS);
		// Every probe at once: each JVM only waits, so that a long bound costs it once.
		ExecutorService probes = Executors.newCachedThreadPool();
		Map<String, CompletableFuture<String>> results = new LinkedHashMap<>();
		for (String client : CLIENTS) {
			results.put(client + " none", CompletableFuture.supplyAsync(() -> inFreshJvm(client, List.of()), probes));
			results.put(client + " sun.net",
					CompletableFuture.supplyAsync(() -> inFreshJvm(client, SUN_NET_DEFAULTS), probes));
		}
		System.out.printf(Locale.ROOT, "%-26s | %-48s | %-48s%n", "client (Spring's factory)", "no property",
				"sun.net.client.default*Timeout=2000");
		for (String client : CLIENTS) {
			System.out.printf(Locale.ROOT, "%-26s | %-48s | %-48s%n", client, results.get(client + " none").join(),
					results.get(client + " sun.net").join());
		}
		probes.shutdown();
	}

	private static String inFreshJvm(String client, List<String> properties) {
		try (SilentDownstream silent = new SilentDownstream()) {
			List<String> command = new ArrayList<>();
			command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
			command.add("-Dprobe.give-up-seconds=" + GIVE_UP_SECONDS);
			command.addAll(properties);
			command.addAll(List.of("-cp", System.getProperty("java.class.path"),
					HandBuiltClientSilenceProbe.class.getName(), client, silent.url()));
			// Into a file, read once the JVM has ended: a pipe nobody reads while the
			// client logs could fill up and block it.
			Path output = Files.createTempFile("silence-probe-" + client, ".log");
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			long start = System.nanoTime();
			if (!process.waitFor(GIVE_UP_SECONDS + 20, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				Files.deleteIfExists(output);
				return "probe did not end (killed)";
			}
			String out = Files.readString(output, StandardCharsets.UTF_8);
			Files.delete(output);
			String last = out.lines().filter((line) -> line.startsWith("ended:")).findFirst().orElse(null);
			if (last == null) {
				return "no result after " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) + " s: "
						+ out.lines().findFirst().orElse("");
			}
			return last.substring("ended:".length()).trim() + " (accepted " + silent.accepted() + ")";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return "interrupted";
		}
	}

	/**
	 * In the fresh JVM: one call, bounded by this thread's wait, the result on one line.
	 */
	private static void callOnce(String client, URI downstream) throws Exception {
		ClientHttpRequestFactory factory = factory(client);
		Thread call = new Thread(() -> {
			long start = System.nanoTime();
			try (ClientHttpResponse response = factory.createRequest(downstream.resolve("/price"), HttpMethod.GET)
				.execute()) {
				System.out.println("ended: answered " + response.getStatusCode().value());
			}
			catch (IOException | RuntimeException ex) {
				Throwable root = ex;
				while (root.getCause() != null) {
					root = root.getCause();
				}
				System.out.printf(Locale.ROOT, "ended: %s after %.2f s (%s: %s)%n", ex.getClass().getSimpleName(),
						(System.nanoTime() - start) / 1e9, root.getClass().getSimpleName(), root.getMessage());
			}
		}, "probe-call");
		call.setDaemon(true);
		call.start();
		call.join(TimeUnit.SECONDS.toMillis(GIVE_UP_SECONDS));
		if (call.isAlive()) {
			System.out.println("ended: still waiting after " + GIVE_UP_SECONDS + " s");
		}
		System.exit(0);
	}

	private static ClientHttpRequestFactory factory(String client) throws Exception {
		return switch (client) {
			case "simple" -> new SimpleClientHttpRequestFactory();
			case "simple-property-set-late" -> {
				// A first connection before the property: the JDK reads it once.
				try {
					URI.create("http://127.0.0.1:9/").toURL().openConnection().getInputStream().close();
				}
				catch (IOException ex) {
					// refused, as expected: the JDK's network classes are initialised now
				}
				System.setProperty("sun.net.client.defaultReadTimeout", "2000");
				yield new SimpleClientHttpRequestFactory();
			}
			case "jdk" -> new JdkClientHttpRequestFactory();
			case "apache-system" -> new HttpComponentsClientHttpRequestFactory();
			case "jetty" -> {
				JettyClientHttpRequestFactory jetty = new JettyClientHttpRequestFactory();
				jetty.afterPropertiesSet();
				yield jetty;
			}
			case "reactor-netty" -> new ReactorClientHttpRequestFactory();
			default -> throw new IllegalArgumentException("unknown client " + client + "; known: " + ALL_CLIENTS);
		};
	}

}
