package dev.safedefaults.consumers;

import java.io.IOException;
import java.io.UncheckedIOException;
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

import dev.safedefaults.testsupport.FreePort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A consumer project's packaged application ({@code java -jar}), started with the JDK
 * that runs the tests, on a free port.
 */
final class ConsumerApp implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Process process;

	private final Path log;

	private final int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private ConsumerApp(Process process, Path log, int port) {
		this.process = process;
		this.log = log;
		this.port = port;
	}

	/**
	 * Starts the jar that invoker:run built for a consumer project and waits for its
	 * health endpoint.
	 * @param project the project's directory name under {@code src/it}
	 * @param appArgs application arguments
	 * @return the running application
	 */
	static ConsumerApp start(String project, String... appArgs) {
		return startJar(project, project + "-1.0", appArgs);
	}

	/**
	 * Starts one of the jars that invoker:run built for a consumer project (one built
	 * several times, once per profile) and waits for its health endpoint.
	 * @param project the project's directory name under {@code src/it}
	 * @param jar the jar's name without {@code .jar}
	 * @param appArgs application arguments
	 * @return the running application
	 */
	static ConsumerApp startJar(String project, String jar, String... appArgs) {
		Path built = built(project, jar);
		ConsumerApp app = FreePort.start((port) -> startOn(port, jar, built, appArgs), ConsumerApp::lostItsPort);
		if (!app.process.isAlive()) {
			throw new IllegalStateException(
					"The consumer app exited (" + app.process.exitValue() + "); log:\n" + app.log());
		}
		return app;
	}

	/**
	 * Runs one of a consumer project's jars that is expected to exit by itself (a start
	 * that fails) and returns its whole output.
	 * @param project the project's directory name under {@code src/it}
	 * @param jar the jar's name without {@code .jar}
	 * @return what it wrote on standard output and error
	 */
	static String runToExit(String project, String jar) {
		Path built = built(project, jar);
		try {
			Path log = Path.of("target", "consumer-" + jar + ".log");
			Files.createDirectories(log.getParent());
			Process process = new ProcessBuilder(javaCommand(built)).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			if (!process.waitFor(STARTUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
				throw new IllegalStateException(
						jar + " did not exit within " + STARTUP_TIMEOUT + "; log:\n" + Files.readString(log));
			}
			return Files.readString(log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static Path built(String project, String jar) {
		Path built = Path.of(System.getProperty("consumers.directory", "target/consumers"), project, "target",
				jar + ".jar");
		if (!Files.isRegularFile(built)) {
			throw new IllegalStateException("The consumer build did not produce " + built
					+ "; run through Maven's verify phase (invoker:run builds it)");
		}
		return built;
	}

	private static List<String> javaCommand(Path built) {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.add("-Xmx256m");
		command.add("-jar");
		command.add(built.toString());
		return command;
	}

	private boolean lostItsPort() {
		return !this.process.isAlive() && FreePort.lostInOutput(this.port, log());
	}

	private static ConsumerApp startOn(int port, String name, Path built, String... appArgs) {
		List<String> command = javaCommand(built);
		command.add("--server.port=" + port);
		command.addAll(List.of(appArgs));
		try {
			Path log = Path.of("target", "consumer-" + name + ".log");
			Files.createDirectories(log.getParent());
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			ConsumerApp app = new ConsumerApp(process, log, port);
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
			try {
				Thread.sleep(250);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		close();
		throw new IllegalStateException(
				"The consumer app did not answer within " + STARTUP_TIMEOUT + "; log:\n" + log());
	}

	/**
	 * Waits until the application's log contains a text (a line it writes once some work
	 * is done, such as its deferred checks).
	 * @param text the text
	 * @param timeout how long to wait at most
	 */
	void awaitLog(String text, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!log().contains(text)) {
			if (System.nanoTime() > deadline || !this.process.isAlive()) {
				throw new AssertionError("No '" + text + "' in the log within " + timeout + ":\n" + log());
			}
			try {
				Thread.sleep(250);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
	}

	HttpResponse<String> get(String path) {
		try {
			return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	HttpResponse<String> post(String path, String body) {
		try {
			return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
				.timeout(Duration.ofSeconds(10))
				.header("Content-Type", "text/plain")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	JsonNode getJson(String path) {
		HttpResponse<String> response = get(path);
		if (response.statusCode() != 200) {
			throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": " + response.body());
		}
		return JSON.readTree(response.body());
	}

	String log() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
