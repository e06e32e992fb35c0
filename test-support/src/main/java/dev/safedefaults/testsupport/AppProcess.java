package dev.safedefaults.testsupport;

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

/**
 * A packaged Spring Boot application ({@code java -jar}) as a process of its own, on a
 * free port ({@link FreePort}): started, waited for until its {@code /actuator/health}
 * answers (or it exits), read (its log file, and its stdout when a {@link StdoutPump}
 * reads it) and stopped. The system tests' sample app and the consumer tests' apps are
 * both started through it.
 */
public final class AppProcess implements AutoCloseable {

	private final Process process;

	private final Path log;

	private final int port;

	/** The reader of stdout, when stdout is not the log file. */
	private final StdoutPump stdoutPump;

	private final Duration requestTimeout;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private AppProcess(Process process, Path log, int port, StdoutPump stdoutPump, Duration requestTimeout) {
		this.process = process;
		this.log = log;
		this.port = port;
		this.stdoutPump = stdoutPump;
		this.requestTimeout = requestTimeout;
	}

	/**
	 * How to start an application.
	 * @param name what the application is called in errors, e.g. {@code The sample app}
	 * @param command the command up to the jar ({@code java ... -jar app.jar});
	 * {@code --server.port} and the application arguments follow it
	 * @return the launch, to complete
	 */
	public static Launch launch(String name, List<String> command) {
		return new Launch(name, command);
	}

	/**
	 * The port the application was started on.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Sends a GET, waiting for the answer for at most the launch's request timeout.
	 * @param path the path
	 * @return the answer
	 */
	public HttpResponse<String> get(String path) {
		return get(path, this.requestTimeout);
	}

	/**
	 * Sends a GET and waits at most so long for its answer.
	 * @param path the path
	 * @param timeout how long to wait for the answer
	 * @return the answer
	 * @throws UncheckedIOException with an {@code HttpTimeoutException} when none came in
	 * time
	 */
	public HttpResponse<String> get(String path, Duration timeout) {
		return send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).timeout(timeout).build());
	}

	/**
	 * Sends a request to the application.
	 * @param request the request (to {@code http://127.0.0.1:}{@link #port()})
	 * @return the answer
	 */
	public HttpResponse<String> send(HttpRequest request) {
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

	/**
	 * The process.
	 * @return the process
	 */
	public Process process() {
		return this.process;
	}

	/**
	 * Whether the application's stdout is read by a {@link StdoutPump} (else it goes to
	 * the log file).
	 * @return true when it has a reader of its own
	 */
	public boolean hasStdoutPump() {
		return this.stdoutPump != null;
	}

	/**
	 * The file the application's stdout ends up in: the log file, or the file a pump
	 * copies it to.
	 * @return the file
	 */
	public Path stdoutFile() {
		return (this.stdoutPump != null) ? this.stdoutPump.file() : this.log;
	}

	/**
	 * Stops reading stdout (only with a pump): once the pipe's buffer is full, every
	 * write to stdout blocks.
	 */
	public void stallStdout() {
		this.stdoutPump.stall();
	}

	/** Reads stdout again (only with a pump), at the pump's pace if it has one. */
	public void resumeStdout() {
		this.stdoutPump.resume();
	}

	/**
	 * Waits until the pump has read the end of stdout (no pump: returns at once).
	 * @param limit how long to wait at most
	 */
	public void awaitStdoutEnd(Duration limit) {
		if (this.stdoutPump != null) {
			this.stdoutPump.awaitEnd(limit);
		}
	}

	/**
	 * What the application wrote to its log file: stdout and stderr, or stderr alone when
	 * a pump reads stdout.
	 * @return the log
	 * @throws UncheckedIOException when the file cannot be read
	 */
	public String log() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends SIGTERM (a graceful stop) and returns at once. Unlike
	 * {@link Process#destroy()}, which closes this side of the application's stdout right
	 * after the signal (its writes then fail at once, as if the log were written), the
	 * pipes stay open.
	 */
	public void terminate() {
		this.process.toHandle().destroy();
	}

	/**
	 * Stops the application, if it runs, and waits for the end (30 s, then
	 * {@code SIGKILL}); stdout, read again if stalled, reaches its file. A pipe read by a
	 * pump stays open during the stop (SIGTERM alone), so that the stop writes what is
	 * queued.
	 */
	@Override
	public void close() {
		stop(this.stdoutPump != null);
	}

	/**
	 * Stops the application, if it runs, and waits for the end (30 s, then
	 * {@code SIGKILL}); stdout, read again if stalled, reaches its file.
	 * @param keepStdoutOpen whether the pipes stay open during the stop (SIGTERM alone),
	 * else {@link Process#destroy()} closes them right after the signal
	 */
	public void stop(boolean keepStdoutOpen) {
		if (this.stdoutPump != null) {
			this.stdoutPump.resume();
		}
		if (this.process.isAlive()) {
			if (keepStdoutOpen) {
				terminate();
			}
			else {
				this.process.destroy();
			}
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
		// What was still in the pipe when the process ended reaches the file.
		awaitStdoutEnd(Duration.ofSeconds(10));
	}

	/**
	 * Whether the application exited because another process took its port before Tomcat
	 * bound it.
	 */
	private boolean lostItsPort() {
		return !this.process.isAlive() && (FreePort.lostInOutput(this.port, readQuietly(this.log))
				|| (this.stdoutPump != null && FreePort.lostInOutput(this.port, readQuietly(this.stdoutPump.file()))));
	}

	private static String readQuietly(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			return "";
		}
	}

	private void awaitHealthOrExit(String name, Duration startupTimeout) {
		long deadline = System.nanoTime() + startupTimeout.toNanos();
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
		throw new IllegalStateException(name + " did not answer within " + startupTimeout + "; log:\n" + log());
	}

	/**
	 * How to start an application: its command, where its output goes, how long it may
	 * take.
	 */
	public static final class Launch {

		private final String name;

		private final List<String> command;

		private Path log;

		private Path stdoutFile;

		private long stdoutBytesPerSecond;

		private Duration startupTimeout = Duration.ofSeconds(120);

		private Duration requestTimeout = Duration.ofSeconds(10);

		private Launch(String name, List<String> command) {
			this.name = name;
			this.command = List.copyOf(command);
		}

		/**
		 * The log file: stdout and stderr, or stderr alone when a pump reads stdout.
		 * @param log the file
		 * @return this launch
		 */
		public Launch log(Path log) {
			this.log = log;
			return this;
		}

		/**
		 * Stdout as a pipe, copied by a {@link StdoutPump} to a file of its own.
		 * @param file where stdout is copied
		 * @param bytesPerSecond how fast stdout is read; 0 for as fast as it comes
		 * @return this launch
		 */
		public Launch stdoutPumpedTo(Path file, long bytesPerSecond) {
			this.stdoutFile = file;
			this.stdoutBytesPerSecond = bytesPerSecond;
			return this;
		}

		/**
		 * How long the application may take to answer its health endpoint.
		 * @param timeout the limit (120 s unless set)
		 * @return this launch
		 */
		public Launch startupTimeout(Duration timeout) {
			this.startupTimeout = timeout;
			return this;
		}

		/**
		 * How long {@link AppProcess#get(String)} waits for an answer.
		 * @param timeout the limit (10 s unless set)
		 * @return this launch
		 */
		public Launch requestTimeout(Duration timeout) {
			this.requestTimeout = timeout;
			return this;
		}

		/**
		 * Starts the application on a free port ({@link FreePort}, again on another one
		 * when it lost the port) and returns once its {@code /actuator/health} answers or
		 * it has exited.
		 * @param appArgs the application arguments
		 * @return the application
		 * @throws IllegalStateException when it neither answered nor exited in time (it
		 * is then stopped)
		 */
		public AppProcess start(List<String> appArgs) {
			if (this.log == null) {
				throw new IllegalStateException("No log file for " + this.name);
			}
			return FreePort.start((port) -> startOn(port, appArgs), AppProcess::lostItsPort);
		}

		private AppProcess startOn(int port, List<String> appArgs) {
			List<String> command = new ArrayList<>(this.command);
			command.add("--server.port=" + port);
			command.addAll(appArgs);
			try {
				Files.createDirectories(this.log.toAbsolutePath().getParent());
				ProcessBuilder builder = new ProcessBuilder(command);
				if (this.stdoutFile != null) {
					builder.redirectError(this.log.toFile());
				}
				else {
					builder.redirectErrorStream(true).redirectOutput(this.log.toFile());
				}
				Process process = builder.start();
				StdoutPump pump = (this.stdoutFile != null)
						? StdoutPump.start(process, this.stdoutFile, this.stdoutBytesPerSecond) : null;
				AppProcess app = new AppProcess(process, this.log, port, pump, this.requestTimeout);
				app.awaitHealthOrExit(this.name, this.startupTimeout);
				return app;
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
