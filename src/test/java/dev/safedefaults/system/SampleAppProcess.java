package dev.safedefaults.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.testsupport.AppProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The packaged sample app ({@code java -jar}, the fat-jar deployment of incident 1) as a
 * real process on its embedded MariaDB, run with the same JDK as the tests.
 */
public final class SampleAppProcess implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(180);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final AppProcess app;

	private final Process process;

	/** The app's child processes (its embedded database) when it was told to stop. */
	private volatile List<ProcessHandle> children = List.of();

	private SampleAppProcess(AppProcess app) {
		this.app = app;
		this.process = app.process();
	}

	/**
	 * Starts the sample app and returns once the process has either exited or its
	 * {@code /actuator/health} answers.
	 * @param name names the log file
	 * @param jvmArgs JVM arguments, e.g. {@code -Dsafe-defaults.enabled=false}
	 * @param appArgs application arguments, e.g. {@code --spring.profiles.active=naive}
	 */
	public static SampleAppProcess start(String name, List<String> jvmArgs, List<String> appArgs) {
		return start(name, jvmArgs, appArgs, false);
	}

	/**
	 * Starts the sample app.
	 * @param name names the log file
	 * @param jvmArgs JVM arguments
	 * @param appArgs application arguments
	 * @param stallableStdout whether stdout is a pipe this process reads until
	 * {@link #stallStdout()} (then nobody reads it: the log consumer has stalled); stderr
	 * goes to the log file
	 * @return the started app
	 */
	public static SampleAppProcess start(String name, List<String> jvmArgs, List<String> appArgs,
			boolean stallableStdout) {
		return start(name, jvmArgs, appArgs, stallableStdout, 0);
	}

	/**
	 * Starts the sample app with its stdout a pipe read no faster than a log shipper that
	 * keeps up with only so many bytes per second; stderr goes to the log file.
	 * @param name names the log files
	 * @param jvmArgs JVM arguments
	 * @param appArgs application arguments
	 * @param stdoutBytesPerSecond how fast stdout is read
	 * @return the started app
	 */
	public static SampleAppProcess startWithSlowStdout(String name, List<String> jvmArgs, List<String> appArgs,
			long stdoutBytesPerSecond) {
		if (stdoutBytesPerSecond <= 0) {
			throw new IllegalArgumentException("stdoutBytesPerSecond must be positive: " + stdoutBytesPerSecond);
		}
		return start(name, jvmArgs, appArgs, true, stdoutBytesPerSecond);
	}

	private static SampleAppProcess start(String name, List<String> jvmArgs, List<String> appArgs,
			boolean stallableStdout, long stdoutBytesPerSecond) {
		return startOn(sampleAppJar(), name, jvmArgs, appArgs, stallableStdout, stdoutBytesPerSecond);
	}

	/**
	 * Starts another packaged application the same way (it must expose
	 * {@code /actuator/health}), e.g. a benchmark's own fat jar.
	 * @param jar the fat jar
	 * @param name names the log file
	 * @param jvmArgs JVM arguments
	 * @param appArgs application arguments
	 * @return the started app
	 */
	public static SampleAppProcess startJar(Path jar, String name, List<String> jvmArgs, List<String> appArgs) {
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("The packaged application is missing: " + jar);
		}
		return startOn(jar.toString(), name, jvmArgs, appArgs, false, 0);
	}

	private static String sampleAppJar() {
		String jar = System.getProperty("sample-app.jar");
		if (jar == null || !Files.isRegularFile(Path.of(jar))) {
			throw new IllegalStateException("The packaged sample app is missing (" + jar
					+ "); run the system tests through Maven's verify phase");
		}
		return jar;
	}

	/**
	 * The JVM arguments the system tests add to every start (the failsafe configuration's
	 * {@code sample-app.test-jvm-args}, space-separated):
	 * {@code -XX:TieredStopAtLevel=1}, since a system test proves behaviour, not speed,
	 * and the optimising compiler's threads would take most of a 2-core machine's CPU in
	 * the first minute of every start. The benchmarks, which start the app through the
	 * same class outside failsafe, run with the JVM's defaults.
	 */
	private static List<String> testJvmArgs() {
		String args = System.getProperty("sample-app.test-jvm-args", "").strip();
		return args.isEmpty() ? List.of() : List.of(args.split("\\s+"));
	}

	private static SampleAppProcess startOn(String jar, String name, List<String> jvmArgs, List<String> appArgs,
			boolean stallableStdout, long stdoutBytesPerSecond) {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.add("-Xmx512m");
		command.addAll(testJvmArgs());
		command.addAll(jvmArgs);
		command.add("-jar");
		command.add(jar);
		Path log = Path.of("target", "sample-app-" + name + ".log");
		AppProcess.Launch launch = AppProcess.launch("The sample app", command)
			.log(log)
			.startupTimeout(STARTUP_TIMEOUT)
			.requestTimeout(Duration.ofSeconds(30));
		if (stallableStdout) {
			launch.stdoutPumpedTo(log.resolveSibling(name + ".stdout.log"), stdoutBytesPerSecond);
		}
		return new SampleAppProcess(launch.start(appArgs));
	}

	/**
	 * Sends a GET to the app.
	 * @param path the path
	 * @return the response
	 */
	public HttpResponse<String> get(String path) {
		return this.app.get(path);
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Waits for the process to exit by itself (after a failed startup).
	 * @return its exit code
	 */
	public int awaitExit() throws InterruptedException {
		if (!this.process.waitFor(60, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Still running");
		}
		return this.process.exitValue();
	}

	/**
	 * Sends SIGTERM (a graceful stop) and returns at once. Unlike
	 * {@link Process#destroy()}, which closes this side of the app's stdout right after
	 * the signal (the app's writes then fail at once, as if the log were written), the
	 * pipes stay open.
	 */
	public void terminate() {
		// A JVM that ends abruptly leaves its children behind: remember them for close().
		this.children = this.process.descendants().toList();
		this.app.terminate();
	}

	/**
	 * The app's threads, as {@code jcmd <pid> Thread.print} prints them.
	 * @return the thread dump
	 */
	public String threadDump() {
		Path javaCommand = Path.of(ProcessHandle.current().info().command().orElseThrow());
		Path jcmd = javaCommand.resolveSibling("jcmd");
		try {
			Process dump = new ProcessBuilder(jcmd.toString(), String.valueOf(this.process.pid()), "Thread.print")
				.redirectErrorStream(true)
				.start();
			String text = new String(dump.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
			dump.waitFor(30, TimeUnit.SECONDS);
			return text;
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
	 * Waits for the process to end.
	 * @param limit how long to wait
	 * @return whether it ended in time
	 */
	public boolean awaitExit(Duration limit) throws InterruptedException {
		return this.process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * Stops reading the app's stdout (only when started with a stallable stdout): once
	 * the pipe's buffer is full, every write to stdout blocks.
	 */
	public void stallStdout() {
		this.app.stallStdout();
	}

	/**
	 * Reads the app's stdout again after {@link #stallStdout()}, at its pace if it has
	 * one.
	 */
	public void resumeStdout() {
		this.app.resumeStdout();
	}

	/**
	 * The app's base URL.
	 * @return {@code http://127.0.0.1:port}
	 */
	public String baseUrl() {
		return "http://127.0.0.1:" + this.app.port();
	}

	/**
	 * The process.
	 * @return the process handle
	 */
	public ProcessHandle handle() {
		return this.process.toHandle();
	}

	/**
	 * The embedded database's server process ({@code mariadbd}), started by the app.
	 * @return the server
	 */
	public ProcessHandle databaseServer() {
		return this.process.descendants()
			.filter((child) -> child.info().command().orElse("").endsWith("/mariadbd"))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("The app runs no embedded database server"));
	}

	/**
	 * Kills the app with {@code SIGKILL} (no shutdown hook runs) and waits until it has
	 * gone.
	 */
	public void kill() throws InterruptedException {
		this.process.destroyForcibly();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("Still running 30 s after SIGKILL");
		}
	}

	/**
	 * The findings at {@code /actuator/health/safe-defaults}.
	 * @return each finding id's message (the last one's where an id has several
	 * subjects), in the report's order
	 * @throws IllegalStateException when the group does not answer 200 (the starter is
	 * off, or the group is missing)
	 */
	public Map<String, String> findingMessages() {
		Map<String, String> messages = new LinkedHashMap<>();
		findings()
			.forEach((finding) -> messages.put(finding.path("id").asString(), finding.path("message").asString()));
		return messages;
	}

	/**
	 * The findings at {@code /actuator/health/safe-defaults}, as the group answers them.
	 * @return each finding (id, severity, subject, message, fix), in the report's order
	 * @throws IllegalStateException when the group does not answer 200 (the starter is
	 * off, or the group is missing)
	 */
	public List<JsonNode> findings() {
		HttpResponse<String> response = get("/actuator/health/safe-defaults");
		if (response.statusCode() != 200) {
			throw new IllegalStateException(
					"GET /actuator/health/safe-defaults answered " + response.statusCode() + ": " + response.body());
		}
		List<JsonNode> findings = new ArrayList<>();
		JSON.readTree(response.body())
			.path("components")
			.path("safeDefaults")
			.path("details")
			.path("findings")
			.forEach(findings::add);
		return findings;
	}

	/**
	 * The findings of an id at {@code /actuator/health/safe-defaults}, one per subject.
	 * @param id the finding's id
	 * @return its findings, in the report's order
	 */
	public List<JsonNode> findings(String id) {
		return findings().stream().filter((finding) -> id.equals(finding.path("id").asString())).toList();
	}

	/**
	 * The first of some findings whose subject starts with a text.
	 * @param findings the findings
	 * @param subjectStart the start of the subject
	 * @return the finding, or {@code null} when none has such a subject
	 */
	public static JsonNode withSubject(List<JsonNode> findings, String subjectStart) {
		return findings.stream()
			.filter((finding) -> finding.path("subject").asString().startsWith(subjectStart))
			.findFirst()
			.orElse(null);
	}

	/**
	 * The first finding of an id at {@code /actuator/health/safe-defaults}.
	 * @param id the finding's id
	 * @return the finding, or {@code null} when none is raised
	 */
	public JsonNode finding(String id) {
		return findings().stream()
			.filter((finding) -> id.equals(finding.path("id").asString()))
			.findFirst()
			.orElse(null);
	}

	/**
	 * One feature of the starter's report ({@code /actuator/safedefaults}).
	 * @param report the report
	 * @param name the feature's name, such as {@code jdbc}
	 * @return the feature
	 * @throws AssertionError when the report has no such feature
	 */
	public static JsonNode feature(JsonNode report, String name) {
		for (JsonNode feature : report.path("features")) {
			if (name.equals(feature.path("feature").asString())) {
				return feature;
			}
		}
		throw new AssertionError("No feature " + name + " in " + report.path("features"));
	}

	/**
	 * The names of the app's threads as the kernel keeps them
	 * ({@code /proc/PID/task/TID/comm}): cut to 15 characters, e.g.
	 * {@code Log4j2-TF-1-Asy} for Log4j's async logger thread.
	 * @return the names, one per thread
	 */
	public List<String> threadNames() {
		Path tasks = Path.of("/proc", Long.toString(this.process.pid()), "task");
		List<String> names = new ArrayList<>();
		try (java.util.stream.Stream<Path> threads = Files.list(tasks)) {
			for (Path thread : threads.toList()) {
				try {
					names.add(Files.readString(thread.resolve("comm")).strip());
				}
				catch (IOException ex) {
					// the thread has ended
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot list the threads of the app", ex);
		}
		return names;
	}

	/**
	 * The file the app's stdout ends up in: the log file, or the file a stallable or slow
	 * stdout is copied to.
	 * @return the file
	 */
	public Path stdoutFile() {
		return this.app.stdoutFile();
	}

	/**
	 * What the app wrote to its log file (stdout too, unless it is stallable).
	 * @return the log
	 */
	public String log() {
		return this.app.log();
	}

	@Override
	public void close() {
		// Process.destroy(): the pipes close right after the signal, as they always did
		// here.
		this.app.stop(false);
		// The embedded database outlives a JVM that was halted (or killed): stop it too.
		for (ProcessHandle child : this.children) {
			if (child.isAlive()) {
				child.destroy();
			}
		}
	}

}
