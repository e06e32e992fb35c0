package dev.safedefaults.benchmarks.jdbc;

import dev.safedefaults.testsupport.EmbeddedMariaDb;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Does Hikari's keepalive make a pool survive an idle timeout shorter than its
 * {@code maxLifetime}, without hiding real failures? Four pools of 4 connections on one
 * embedded MariaDB 11.4, side by side, each with the server's idle timeout lowered for
 * its own sessions ({@code sessionVariables=wait_timeout=N}, as a proxy or a hand-tuned
 * server has it), all idle for longer than the timeout, then each borrows all its
 * connections:
 * <ul>
 * <li>{@code no keepalive}: {@code keepaliveTime=0}, timeout 40 s;</li>
 * <li>{@code keepalive 30s}: timeout 40 s;</li>
 * <li>{@code keepalive 30s, timeout 20s}: the keepalive is too slow for the timeout;</li>
 * <li>{@code keepalive 30s, killed}: timeout 40 s, and every connection of the pool is
 * killed on the server right after the pool is filled (a real failure: a failover, a
 * restart).</li>
 * </ul>
 * Prints, per pool, Hikari's "Failed to validate connection" warnings during the idle
 * period and during the borrows, the borrow latencies, and whether each borrowed
 * connection worked. Keepalive must remove the warnings of the first case and leave those
 * of the last two (the failures stay visible).
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.jdbc.PoolIdleTimeoutBenchmark -Dbenchmark="50"}
 * (idle seconds, default 50).
 */
public final class PoolIdleTimeoutBenchmark {

	private static final int POOL_SIZE = 4;

	private static final Map<String, AtomicInteger> WARNINGS = new ConcurrentHashMap<>();

	private PoolIdleTimeoutBenchmark() {
	}

	private record Setup(String name, long keepaliveMillis, int waitTimeoutSeconds, boolean killed) {
	}

	public static void main(String[] args) throws Exception {
		int idleSeconds = (args.length > 0) ? Integer.parseInt(args[0]) : 50;
		countHikariWarnings();
		List<Setup> setups = List.of(new Setup("no keepalive", 0, 40, false),
				new Setup("keepalive 30s", 30_000, 40, false),
				new Setup("keepalive 30s, timeout 20s", 30_000, 20, false),
				new Setup("keepalive 30s, killed", 30_000, 40, true));
		Map<Setup, HikariDataSource> pools = new LinkedHashMap<>();
		EmbeddedMariaDb server = EmbeddedMariaDb.start();
		try (Connection observer = server.connect()) {
			for (Setup setup : setups) {
				HikariDataSource pool = new HikariDataSource();
				pool.setPoolName(setup.name());
				pool.setJdbcUrl(server.url("mysql", "sessionVariables=wait_timeout=" + setup.waitTimeoutSeconds()));
				pool.setUsername("root");
				pool.setPassword("");
				pool.setMaximumPoolSize(POOL_SIZE);
				pool.setMinimumIdle(POOL_SIZE);
				pool.setKeepaliveTime(setup.keepaliveMillis());
				try (Connection connection = pool.getConnection()) {
					// starts the pool
				}
				while (pool.getHikariPoolMXBean().getIdleConnections() < POOL_SIZE) {
					Thread.sleep(10);
				}
				pools.put(setup, pool);
			}
			for (Setup setup : setups) {
				if (setup.killed()) {
					killSessionsOf(observer, pools.get(setup), setup.name());
				}
			}
			System.out.println("All pools filled (" + POOL_SIZE + " connections each); idle for " + idleSeconds + " s");
			Thread.sleep(idleSeconds * 1000L);
			Thread.sleep(500);
			Map<String, Integer> idleWarnings = new LinkedHashMap<>();
			setups.forEach((setup) -> idleWarnings.put(setup.name(), warnings(setup.name())));
			System.out.println();
			System.out.printf(Locale.ROOT, "%-28s %9s %12s %14s %12s %18s %8s%n", "pool (idle " + idleSeconds + " s)",
					"timeout", "warnings", "warnings", "first borrow", "borrows (ms)", "worked");
			System.out.printf(Locale.ROOT, "%-28s %9s %12s %14s %12s %18s %8s%n", "", "", "while idle",
					"while borrowing", "(ms)", "", "");
			for (Setup setup : setups) {
				HikariDataSource pool = pools.get(setup);
				List<Connection> borrowed = new ArrayList<>();
				List<Double> latencies = new ArrayList<>();
				int worked = 0;
				for (int i = 0; i < POOL_SIZE; i++) {
					long started = System.nanoTime();
					Connection connection = pool.getConnection();
					latencies.add((System.nanoTime() - started) / 1e6);
					borrowed.add(connection);
					try (Statement statement = connection.createStatement();
							ResultSet result = statement.executeQuery("SELECT 1")) {
						worked += result.next() ? 1 : 0;
					}
					catch (Exception ex) {
						// counted as not working
					}
				}
				for (Connection connection : borrowed) {
					connection.close();
				}
				Thread.sleep(300);
				int borrowWarnings = warnings(setup.name()) - idleWarnings.get(setup.name());
				System.out.printf(Locale.ROOT, "%-28s %8ds %12d %14d %12.1f %18s %5d/%d%n", setup.name(),
						setup.waitTimeoutSeconds(), idleWarnings.get(setup.name()), borrowWarnings, latencies.get(0),
						latencies.stream().map((ms) -> String.format(Locale.ROOT, "%.1f", ms)).toList(), worked,
						POOL_SIZE);
			}
			System.out.println("Warnings: Hikari's 'Failed to validate connection ... Possibly consider using a "
					+ "shorter maxLifetime value' per pool. Keepalive pings idle connections (COM_PING) every "
					+ "27-30 s, which resets the server's idle clock.");
		}
		finally {
			pools.values().forEach(HikariDataSource::close);
			server.close();
		}
	}

	/** Kills, on the server, every session of the pool. */
	private static void killSessionsOf(Connection observer, HikariDataSource pool, String name) throws Exception {
		// The sessions of the pool are recognised by their ids, read through the pool
		// itself.
		List<Long> ids = new ArrayList<>();
		List<Connection> all = new ArrayList<>();
		for (int i = 0; i < POOL_SIZE; i++) {
			Connection connection = pool.getConnection();
			all.add(connection);
			try (Statement statement = connection.createStatement();
					ResultSet result = statement.executeQuery("SELECT CONNECTION_ID()")) {
				result.next();
				ids.add(result.getLong(1));
			}
		}
		for (Connection connection : all) {
			connection.close();
		}
		try (Statement statement = observer.createStatement()) {
			for (long id : ids) {
				statement.execute("KILL CONNECTION " + id);
			}
		}
		System.out.println("Killed the " + ids.size() + " sessions of '" + name + "' on the server");
	}

	private static int warnings(String poolName) {
		return WARNINGS.computeIfAbsent(poolName, (name) -> new AtomicInteger()).get();
	}

	/**
	 * Counts Hikari's validation warnings per pool, whatever the logging configuration.
	 */
	private static void countHikariWarnings() {
		LoggerContext context = (LoggerContext) LogManager.getContext(false);
		Configuration configuration = context.getConfiguration();
		AbstractAppender counter = new AbstractAppender("hikari-warnings", null, null, true, Property.EMPTY_ARRAY) {

			@Override
			public void append(LogEvent event) {
				String message = event.getMessage().getFormattedMessage();
				int separator = message.indexOf(" - Failed to validate connection");
				if (separator > 0) {
					WARNINGS.computeIfAbsent(message.substring(0, separator), (name) -> new AtomicInteger())
						.incrementAndGet();
				}
			}

		};
		counter.start();
		configuration.addAppender(counter);
		LoggerConfig hikari = new LoggerConfig("com.zaxxer.hikari", Level.WARN, false);
		hikari.addAppender(counter, Level.WARN, null);
		configuration.addLogger("com.zaxxer.hikari", hikari);
		context.updateLoggers();
	}

}
