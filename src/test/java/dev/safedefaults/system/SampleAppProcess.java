package dev.safedefaults.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The packaged sample app ({@code java -jar}, the fat-jar deployment of incident 1) as a
 * real process on its embedded MariaDB, run with the same JDK as the tests.
 */
final class SampleAppProcess implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(180);

	private final Process process;

	private final Path log;

	private final int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private SampleAppProcess(Process process, Path log, int port) {
		this.process = process;
		this.log = log;
		this.port = port;
	}

	/**
	 * Starts the sample app and returns once the process has either exited or its
	 * {@code /actuator/health} answers.
	 * @param name names the log file
	 * @param jvmArgs JVM arguments, e.g. {@code -Dsafe-defaults.enabled=false}
	 * @param appArgs application arguments, e.g. {@code --spring.profiles.active=naive}
	 */
	static SampleAppProcess start(String name, List<String> jvmArgs, List<String> appArgs) {
		String jar = System.getProperty("sample-app.jar");
		if (jar == null || !Files.isRegularFile(Path.of(jar))) {
			throw new IllegalStateException("The packaged sample app is missing (" + jar
					+ "); run the system tests through Maven's verify phase");
		}
		int port = freePort();
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.add("-Xmx512m");
		command.addAll(jvmArgs);
		command.add("-jar");
		command.add(jar);
		command.add("--server.port=" + port);
		command.addAll(appArgs);
		try {
			Path log = Path.of("target", "sample-app-" + name + ".log");
			Files.createDirectories(log.getParent());
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			SampleAppProcess app = new SampleAppProcess(process, log, port);
			app.awaitHealthOrExit();
			return app;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void awaitHealthOrExit() {
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				return;
			}
			try {
				if (get("/actuator/health").statusCode() == 200) {
					return;
				}
			}
			catch (UncheckedIOException ex) {
				// not listening yet
			}
			sleep(250);
		}
		close();
		throw new IllegalStateException("The sample app did not answer within " + STARTUP_TIMEOUT + "; log:\n" + log());
	}

	HttpResponse<String> get(String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Waits for the process to exit by itself (after a failed startup).
	 * @return its exit code
	 */
	int awaitExit() throws InterruptedException {
		if (!this.process.waitFor(60, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Still running");
		}
		return this.process.exitValue();
	}

	String log() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			this.process.destroy();
			try {
				if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
					this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.process.destroyForcibly();
			}
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
