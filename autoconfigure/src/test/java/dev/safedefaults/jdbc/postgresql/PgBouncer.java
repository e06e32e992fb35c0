package dev.safedefaults.jdbc.postgresql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.jdbc.MachineService;
import dev.safedefaults.testsupport.FreePort;
import org.jspecify.annotations.Nullable;

/**
 * A real PgBouncer (Debian's package) in front of the PostgreSQL service the project's
 * machines run, for the pooler trap of issue 23. The test never downloads it: it runs the
 * binary Debian's package installs ({@code apt-get install pgbouncer}, which CI's
 * {@code .ci/prepare} runs before the build; the package's own service is never started).
 * PgBouncer refuses to run as root, so as root it is started with {@code -u postgres}.
 * Each instance has its own configuration and port under {@code target/pgbouncer/}, runs
 * in the foreground as a child of the test JVM, and is stopped by {@link #close()}. What
 * cannot be had is reported through {@link MachineService}: a failure on CI, a
 * {@code SKIPPED:} line elsewhere.
 */
final class PgBouncer implements AutoCloseable {

	private static final Path HOME = Path.of("target", "pgbouncer");

	private static final Path INSTALLED = Path.of("/usr/sbin/pgbouncer");

	private static final Pattern VERSION = Pattern.compile("PgBouncer (\\d+)\\.(\\d+)(?:\\.(\\d+))?");

	private static @Nullable Binary binary;

	private final Process process;

	private final int port;

	private final Path log;

	private PgBouncer(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/** The executable, and the library directory it needs when it was unpacked. */
	private record Binary(Path executable, @Nullable Path libraries, String version) {

		boolean atLeast(int major, int minor) {
			Matcher matcher = VERSION.matcher(this.version);
			if (!matcher.find()) {
				return false;
			}
			int foundMajor = Integer.parseInt(matcher.group(1));
			int foundMinor = Integer.parseInt(matcher.group(2));
			return foundMajor > major || (foundMajor == major && foundMinor >= minor);
		}

	}

	/**
	 * Finds or unpacks PgBouncer once per JVM; fails on CI and skips elsewhere when it
	 * cannot.
	 * @return its {@code --version} first line
	 */
	static synchronized String require() {
		if (binary == null) {
			binary = find();
		}
		return binary.version();
	}

	private static Binary find() {
		StringBuilder tried = new StringBuilder();
		if (Files.isExecutable(INSTALLED)) {
			Binary installed = probe(INSTALLED, null, tried);
			if (installed != null) {
				return installed;
			}
		}
		MachineService.missing("pgbouncer.required", "no PgBouncer: not installed at " + INSTALLED + tried
				+ " (install it with 'apt-get install pgbouncer', as .ci/prepare does)");
		throw new IllegalStateException("unreachable");
	}

	private static boolean isRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	private static @Nullable Binary probe(Path executable, @Nullable Path libraries, StringBuilder tried) {
		try {
			ProcessBuilder builder = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true);
			if (libraries != null) {
				builder.environment().put("LD_LIBRARY_PATH", libraries.toAbsolutePath().toString());
			}
			Process process = builder.start();
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				tried.append("; ").append(executable).append(" --version did not exit within 30 s");
				return null;
			}
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (process.exitValue() == 0 && VERSION.matcher(output).find()) {
				return new Binary(executable, libraries, output.lines().findFirst().orElse(output));
			}
			tried.append("; ").append(executable).append(" --version: ").append(output);
		}
		catch (IOException ex) {
			tried.append("; ").append(executable).append(": ").append(ex.getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return null;
	}

	/**
	 * Starts a PgBouncer in front of the PostgreSQL at 127.0.0.1:5432, database
	 * {@code test}, logged in as {@code postgres} whatever user a client names.
	 * @param poolMode {@code session}, {@code transaction} or {@code statement}
	 * @param serverSessions how many server sessions it may open
	 * ({@code default_pool_size})
	 * @return the running PgBouncer
	 */
	static PgBouncer start(String poolMode, int serverSessions) {
		Binary found;
		synchronized (PgBouncer.class) {
			require();
			found = binary;
		}
		return FreePort.start((port) -> start(found, port, poolMode, serverSessions),
				(bouncer) -> bouncer.output().contains("Address already in use"));
	}

	private static PgBouncer start(Binary found, int port, String poolMode, int serverSessions) {
		try {
			Path directory = Files.createDirectories(HOME.resolve("run-" + port)).toAbsolutePath();
			List<String> settings = new ArrayList<>(
					List.of("[databases]", "test = host=127.0.0.1 port=5432 dbname=test user=postgres", "[pgbouncer]",
							"listen_addr = 127.0.0.1", "listen_port = " + port, "unix_socket_dir =", "auth_type = any",
							"pool_mode = " + poolMode, "default_pool_size = " + serverSessions, "max_client_conn = 50",
							"ignore_startup_parameters = extra_float_digits", "query_wait_timeout = 10", "logfile =",
							"pidfile ="));
			if (found.atLeast(1, 21)) {
				// 1.21 added prepared statement tracking (default 0, off, until 1.23; 200
				// since 1.24): off, to meet the trap as older releases and other poolers
				// do.
				settings.add("max_prepared_statements = 0");
			}
			Path ini = Files.write(directory.resolve("pgbouncer.ini"), settings);
			Path log = directory.resolve("pgbouncer.log");
			List<String> command = new ArrayList<>(List.of(found.executable().toAbsolutePath().toString()));
			if (isRoot()) {
				// PgBouncer refuses to run as root; it switches user after reading its
				// configuration.
				command.addAll(List.of("-u", "postgres"));
			}
			command.add(ini.toString());
			ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
			if (found.libraries() != null) {
				builder.environment().put("LD_LIBRARY_PATH", found.libraries().toAbsolutePath().toString());
			}
			PgBouncer bouncer = new PgBouncer(builder.start(), port, log);
			bouncer.awaitListening();
			return bouncer;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void awaitListening() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (this.process.isAlive() && System.nanoTime() < deadline) {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", this.port), 200);
				return;
			}
			catch (IOException ex) {
				try {
					Thread.sleep(50);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
		if (!this.process.isAlive() && !output().contains("Address already in use")) {
			throw new IllegalStateException("PgBouncer did not start: " + output());
		}
	}

	/**
	 * The JDBC URL of database {@code test} through this PgBouncer.
	 * @return the URL
	 */
	String url() {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/test";
	}

	int port() {
		return this.port;
	}

	/**
	 * What PgBouncer logged so far.
	 * @return its log
	 */
	String output() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	@Override
	public void close() {
		// SIGTERM: PgBouncer closes its client and server connections and exits.
		this.process.destroy();
		try {
			if (!this.process.waitFor(5, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
