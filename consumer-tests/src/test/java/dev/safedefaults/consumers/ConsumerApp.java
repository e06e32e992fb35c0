package dev.safedefaults.consumers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.testsupport.AppProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A consumer project's packaged application ({@code java -jar}), started with the JDK
 * that runs the tests, on a free port.
 */
final class ConsumerApp implements AutoCloseable {

	/**
	 * The table {@code boot40-postgresql-jpa} creates and drops
	 * ({@code ddl-auto=create-drop}) in the machine's PostgreSQL: a test that starts that
	 * application holds this lock (the test classes run side by side), so that one
	 * application never drops the table another is using.
	 */
	static final String POSTGRESQL_NOTES_TABLE = "PostgreSQL test.consumer_jpa_notes";

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The starts of this JVM so far: each has log files of its own. */
	private static final AtomicInteger STARTS = new AtomicInteger();

	private final AppProcess app;

	private ConsumerApp(AppProcess app) {
		this.app = app;
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
		return launch(project, jar, 0, appArgs);
	}

	/**
	 * Starts the jar that invoker:run built for a consumer project on another JDK (JDK 25
	 * for virtual threads) and waits for its health endpoint.
	 * @param java the {@code java} command of that JDK
	 * @param project the project's directory name under {@code src/it}
	 * @param appArgs application arguments
	 * @return the running application
	 */
	static ConsumerApp startOn(String java, String project, String... appArgs) {
		return launch(java, project, project + "-1.0", 0, appArgs);
	}

	/**
	 * Starts one of a consumer project's jars with its stdout read by a log shipper that
	 * keeps up with only so many bytes per second ({@link #stallStdout()} stops it);
	 * stderr goes to the log file.
	 * @param project the project's directory name under {@code src/it}
	 * @param jar the jar's name without {@code .jar}
	 * @param stdoutBytesPerSecond how fast stdout is read
	 * @param appArgs application arguments
	 * @return the running application
	 */
	static ConsumerApp startJarWithSlowStdout(String project, String jar, long stdoutBytesPerSecond,
			String... appArgs) {
		if (stdoutBytesPerSecond <= 0) {
			throw new IllegalArgumentException("stdoutBytesPerSecond must be positive: " + stdoutBytesPerSecond);
		}
		return launch(project, jar, stdoutBytesPerSecond, appArgs);
	}

	private static ConsumerApp launch(String project, String jar, long stdoutBytesPerSecond, String... appArgs) {
		return launch(ProcessHandle.current().info().command().orElse("java"), project, jar, stdoutBytesPerSecond,
				appArgs);
	}

	private static ConsumerApp launch(String java, String project, String jar, long stdoutBytesPerSecond,
			String... appArgs) {
		String name = logName(jar);
		Path log = Path.of("target", name + ".log");
		AppProcess.Launch launch = AppProcess.launch("The consumer app", javaCommand(java, built(project, jar)))
			.log(log)
			.startupTimeout(STARTUP_TIMEOUT);
		if (stdoutBytesPerSecond > 0) {
			launch.stdoutPumpedTo(log.resolveSibling(name + ".stdout.log"), stdoutBytesPerSecond);
		}
		ConsumerApp app = new ConsumerApp(launch.start(List.of(appArgs)));
		if (!app.app.process().isAlive()) {
			throw new IllegalStateException(
					"The consumer app exited (" + app.app.process().exitValue() + "); log:\n" + app.log());
		}
		return app;
	}

	/**
	 * Runs one of a consumer project's jars that is expected to exit by itself (a start
	 * that fails) and returns its whole output.
	 * @param project the project's directory name under {@code src/it}
	 * @param jar the jar's name without {@code .jar}
	 * @param appArgs application arguments
	 * @return what it wrote on standard output and error
	 */
	static String runToExit(String project, String jar, String... appArgs) {
		Path built = built(project, jar);
		try {
			Path log = Path.of("target", logName(jar) + ".log");
			Files.createDirectories(log.getParent());
			List<String> command = javaCommand(built);
			command.addAll(List.of(appArgs));
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
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

	/**
	 * The name of a start's log files: numbered, so that two starts of the same jar (test
	 * classes run side by side) never write to, or read, each other's output.
	 * @param jar the jar's name without {@code .jar}
	 * @return {@code consumer-<jar>-<n>}
	 */
	private static String logName(String jar) {
		return "consumer-" + jar + "-" + STARTS.incrementAndGet();
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
		return javaCommand(ProcessHandle.current().info().command().orElse("java"), built);
	}

	private static List<String> javaCommand(String java, Path built) {
		List<String> command = new ArrayList<>();
		command.add(java);
		command.add("-Xmx256m");
		// Behaviour, not speed: no optimising compiler taking a 2-core machine's CPU at
		// every start (as the system tests start the sample app).
		command.add("-XX:TieredStopAtLevel=1");
		command.add("-jar");
		command.add(built.toString());
		return command;
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
			if (System.nanoTime() > deadline || !this.app.process().isAlive()) {
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
		return this.app.get(path);
	}

	/**
	 * Sends a GET and waits at most so long for its answer.
	 * @param path the path
	 * @param timeout how long to wait for the answer
	 * @return the answer
	 * @throws UncheckedIOException with an {@code HttpTimeoutException} when none came in
	 * time
	 */
	HttpResponse<String> get(String path, Duration timeout) {
		return this.app.get(path, timeout);
	}

	HttpResponse<String> post(String path, String body) {
		return this.app.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.app.port() + path))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "text/plain")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
	}

	/**
	 * Sends the same GET from several threads at once and waits for every answer.
	 * @param callers how many calls at once
	 * @param path the path
	 * @param limit how long to wait for all of them
	 * @return each call's body
	 * @throws AssertionError when a call fails or is not answered within the limit
	 */
	List<String> getConcurrently(int callers, String path, Duration limit) {
		ExecutorService pool = Executors.newFixedThreadPool(callers);
		try {
			List<Future<HttpResponse<String>>> calls = new ArrayList<>();
			for (int i = 0; i < callers; i++) {
				calls.add(pool.submit(() -> get(path)));
			}
			long deadline = System.nanoTime() + limit.toNanos();
			List<String> bodies = new ArrayList<>();
			for (Future<HttpResponse<String>> call : calls) {
				HttpResponse<String> response = call.get(Math.max(0, deadline - System.nanoTime()),
						TimeUnit.NANOSECONDS);
				if (response.statusCode() != 200) {
					throw new AssertionError("GET " + path + " answered " + response.statusCode());
				}
				bodies.add(response.body());
			}
			return bodies;
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new AssertionError("GET " + path + " from " + callers + " threads: not all answered within " + limit,
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * One feature's status in the starter's report ({@code /actuator/safedefaults}).
	 * @param name the feature's name
	 * @return its status
	 */
	JsonNode feature(String name) {
		return feature(getJson("/actuator/safedefaults"), name);
	}

	/**
	 * One feature's status in a report of the starter.
	 * @param report the report of {@code /actuator/safedefaults}
	 * @param name the feature's name
	 * @return its status
	 */
	static JsonNode feature(JsonNode report, String name) {
		for (JsonNode feature : report.path("features")) {
			if (name.equals(feature.path("feature").asString())) {
				return feature;
			}
		}
		throw new AssertionError("No feature " + name + " in " + report.path("features"));
	}

	JsonNode getJson(String path) {
		return json(path, get(path));
	}

	/**
	 * Reads a JSON answer that may take longer than a plain request (work the application
	 * does on request).
	 * @param path the path
	 * @param timeout how long to wait for the answer at most
	 * @return the answer
	 */
	JsonNode getJson(String path, Duration timeout) {
		return json(path, get(path, timeout));
	}

	private static JsonNode json(String path, HttpResponse<String> response) {
		if (response.statusCode() != 200) {
			throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": " + response.body());
		}
		return JSON.readTree(response.body());
	}

	/**
	 * What the application wrote to its log file: stdout and stderr, or stderr alone when
	 * stdout has its own reader.
	 * @return the log
	 */
	String log() {
		try {
			return this.app.log();
		}
		catch (UncheckedIOException ex) {
			return "(not readable: " + ex.getCause() + ")";
		}
	}

	/**
	 * What the reader of stdout has read so far (only when started with a slow stdout).
	 * @return stdout
	 */
	String stdout() {
		return readQuietly(stdoutFile());
	}

	/**
	 * The file stdout is copied to (only when started with a slow stdout).
	 * @return the file
	 */
	Path stdoutFile() {
		if (!this.app.hasStdoutPump()) {
			throw new IllegalStateException("stdout goes to the log file: start with a slow stdout");
		}
		return this.app.stdoutFile();
	}

	/** Stops reading stdout: the log shipper has stalled. */
	void stallStdout() {
		stdoutFile();
		this.app.stallStdout();
	}

	/** Reads stdout again, at its pace. */
	void resumeStdout() {
		stdoutFile();
		this.app.resumeStdout();
	}

	/**
	 * Sends SIGTERM and returns at once, leaving the pipes open (unlike
	 * {@link Process#destroy()}, which closes this side of stdout, so that the
	 * application's writes fail at once as if they were written).
	 */
	void terminate() {
		this.app.terminate();
	}

	/**
	 * Waits for the process to end.
	 * @param limit how long to wait at most
	 * @return whether it ended in time
	 */
	boolean awaitExit(Duration limit) {
		try {
			return this.app.process().waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Stops the application with SIGTERM (its stdout read again, if stalled) and waits
	 * for the exit.
	 * @param bound how long the stop may take
	 * @return the exit status
	 * @throws AssertionError when the stop did not end within the bound (the process is
	 * then killed)
	 */
	int stopWithin(Duration bound) {
		if (this.app.hasStdoutPump()) {
			this.app.resumeStdout();
		}
		terminate();
		boolean ended = awaitExit(bound);
		if (!ended) {
			this.app.process().destroyForcibly();
			awaitExit(Duration.ofSeconds(10));
		}
		this.app.awaitStdoutEnd(Duration.ofSeconds(10));
		if (!ended) {
			throw new AssertionError("The stop did not end within " + bound + "; killed. Log:\n" + log());
		}
		return this.app.process().exitValue();
	}

	/**
	 * The process.
	 * @return its handle
	 */
	ProcessHandle handle() {
		return this.app.process().toHandle();
	}

	private static String readQuietly(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			return "(not readable: " + ex + ")";
		}
	}

	/**
	 * Stops the application: SIGTERM, the pipe left open when stdout has its own reader
	 * (read again, if stalled), so that the stop writes what is queued.
	 */
	@Override
	public void close() {
		this.app.close();
	}

}
