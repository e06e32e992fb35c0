package dev.safedefaults.benchmarks.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.jdbc.JdbcDefaultsProperties;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsPostProcessor;
import dev.safedefaults.testsupport.EmbeddedMariaDb;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

/**
 * Incident 5 on a real server: one update sent with {@code PreparedStatement.execute()}
 * (as MyBatis sends it) and one primary-key select per operation, through a Hikari pool,
 * per driver, with three setups:
 * <ul>
 * <li>{@code plain}: the URL alone (the anti-pattern of the incident);</li>
 * <li>{@code starter}: the same URL, the pool passed through safe-defaults'
 * post-processor;</li>
 * <li>{@code hand-tuned}: the settings written by hand in the URL, as the incident's fix
 * did (for Connector/J: {@code useConfigs=maxPerformance}, which also turns query
 * timeouts off).</li>
 * </ul>
 * {@link #main} (the summary with ratios) runs the setups interleaved in one JVM on one
 * embedded MariaDB 11.4, so that load from other processes on the same cores hits them
 * alike, then counts the server's {@code Com_*} counters per statement for each:
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.jdbc.JdbcStatementsBenchmark -Dbenchmark="7 2 3"}
 * (rounds, seconds per setup and round, warm-up seconds).
 * <p>
 * Under JMH ({@code -Dbenchmark="JdbcStatementsBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s"})
 * each fork starts a server of its own and prints its counters per statement after the
 * measurement ({@code COUNTERS ...}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class JdbcStatementsBenchmark {

	static final int STATEMENTS_PER_OPERATION = 2;

	private static final int POOL_SIZE = 4;

	private static final int ROWS = 1000;

	private static final int COUNTED_OPERATIONS = 1000;

	private static final Map<String, String> HAND_TUNED = Map.of("mysql",
			"useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=250&prepStmtCacheSqlLimit=2048"
					+ "&useConfigs=maxPerformance",
			"mariadb", "useServerPrepStmts=true&cachePrepStmts=true&prepStmtCacheSize=250&useLocalSessionState=true");

	@Param({ "mysql", "mariadb" })
	public String driver;

	@Param({ "plain", "starter", "hand-tuned" })
	public String setup;

	private EmbeddedMariaDb server;

	private HikariDataSource pool;

	@Setup(Level.Trial)
	public void startServerAndPool() throws Exception {
		this.server = startServer();
		createTable(this.server);
		startPool();
	}

	/**
	 * The benchmark's own server; no fsync per commit: the benchmark measures round trips
	 * and parsing (the CPU cost of incident 5), not the disk, whose latency would drown
	 * them in noise.
	 */
	private static EmbeddedMariaDb startServer() {
		return EmbeddedMariaDb.start("bench", "--innodb-flush-log-at-trx-commit=2");
	}

	private static void createTable(EmbeddedMariaDb server) throws Exception {
		try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE items (id INT PRIMARY KEY, n BIGINT NOT NULL, name VARCHAR(64) NOT NULL)");
			StringBuilder insert = new StringBuilder("INSERT INTO items VALUES ");
			for (int id = 1; id <= ROWS; id++) {
				insert.append((id > 1) ? "," : "").append("(").append(id).append(", 0, 'item ").append(id).append("')");
			}
			statement.execute(insert.toString());
		}
	}

	private void startPool() throws Exception {
		this.pool = new HikariDataSource();
		this.pool.setJdbcUrl(
				this.server.url(this.driver, this.setup.equals("hand-tuned") ? HAND_TUNED.get(this.driver) : ""));
		this.pool.setUsername("root");
		this.pool.setPassword("");
		this.pool.setMaximumPoolSize(POOL_SIZE);
		this.pool.setMinimumIdle(POOL_SIZE);
		if (this.setup.equals("starter")) {
			applyTheStarter(this.pool);
		}
		try (Connection connection = this.pool.getConnection()) {
			// starts the pool
		}
		// Hikari fills the pool in the background, sending statements of its own: wait
		// for it.
		while (this.pool.getHikariPoolMXBean().getTotalConnections() < POOL_SIZE) {
			Thread.sleep(10);
		}
	}

	/**
	 * What the starter does to a Boot-created pool: its post-processor, with its
	 * defaults.
	 */
	private static void applyTheStarter(HikariDataSource pool) {
		JdbcDefaultsProperties properties = new JdbcDefaultsProperties();
		properties.afterPropertiesSet();
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerSingleton("properties", properties);
		new MySqlProtocolDefaultsPostProcessor(beanFactory.getBeanProvider(JdbcDefaultsProperties.class))
			.postProcessBeforeInitialization(pool, "dataSource");
	}

	@Benchmark
	public void updateThenSelect(Blackhole blackhole) throws Exception {
		operation(this.pool, ThreadLocalRandom.current().nextInt(ROWS) + 1, blackhole::consume);
	}

	/** Where results go: a Blackhole while measuring, nowhere in the counted pass. */
	@FunctionalInterface
	interface Sink {

		void consume(Object value);

	}

	private static void operation(HikariDataSource pool, int id, Sink blackhole) throws Exception {
		try (Connection connection = pool.getConnection();
				PreparedStatement update = connection.prepareStatement("UPDATE items SET n = n + 1 WHERE id = ?")) {
			update.setInt(1, id);
			blackhole.consume(update.execute());
		}
		try (Connection connection = pool.getConnection();
				PreparedStatement select = connection.prepareStatement("SELECT id, n, name FROM items WHERE id = ?")) {
			select.setInt(1, id);
			try (ResultSet result = select.executeQuery()) {
				result.next();
				blackhole.consume(result.getLong(2));
				blackhole.consume(result.getString(3));
			}
		}
	}

	@TearDown(Level.Trial)
	public void countStatementsAndStop() throws Exception {
		try {
			System.out.println("COUNTERS " + this.driver + " " + this.setup + " " + countedPass());
		}
		finally {
			this.pool.close();
			this.server.close();
		}
	}

	/**
	 * Runs {@link #COUNTED_OPERATIONS} operations between two snapshots of the server's
	 * counters, the cost of a snapshot (measured by two back to back) subtracted.
	 */
	private Properties countedPass() throws Exception {
		try (Connection observer = this.server.connect()) {
			Map<String, Long> first = GlobalStatusCounters.read(observer);
			Map<String, Long> second = GlobalStatusCounters.read(observer);
			for (int i = 0; i < COUNTED_OPERATIONS; i++) {
				operation(this.pool, i % ROWS + 1, (value) -> {
				});
			}
			Map<String, Long> after = GlobalStatusCounters.read(observer);
			Properties perStatement = new Properties();
			double statements = (double) COUNTED_OPERATIONS * STATEMENTS_PER_OPERATION;
			for (String name : GlobalStatusCounters.COUNTERS) {
				long delta = (after.get(name) - second.get(name)) - (second.get(name) - first.get(name));
				perStatement.setProperty(name + ".total", String.valueOf(delta));
				perStatement.setProperty(name + ".perStatement",
						String.format(Locale.ROOT, "%.3f", delta / statements));
			}
			return perStatement;
		}
	}

	/**
	 * Compares the setups in one JVM on one server, interleaved: after a warm-up, each
	 * round measures every setup for the same time in a rotating order, so that load from
	 * outside (other processes on the same cores) hits every setup alike; the median
	 * round counts. Only one setup talks to the server at a time, so the server's
	 * counters read around each slice belong to that setup: they are added up over the
	 * whole run, pool start and warm-up included (what a snapshot adds is measured and
	 * subtracted). Prints statements per second, the counters per statement and the
	 * ratios, per driver.
	 * @param args
	 * {@code [rounds [seconds per setup and round [warm-up seconds per setup]]]}, default
	 * {@code 7 2 3}
	 * @throws Exception when the run fails
	 */
	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 7;
		double seconds = (args.length > 1) ? Double.parseDouble(args[1]) : 2;
		double warmup = (args.length > 2) ? Double.parseDouble(args[2]) : 3;
		String[] drivers = { "mysql", "mariadb" };
		String[] setups = { "plain", "starter", "hand-tuned" };
		Map<String, JdbcStatementsBenchmark> states = new LinkedHashMap<>();
		Map<String, Tally> tallies = new LinkedHashMap<>();
		EmbeddedMariaDb server = startServer();
		try (Connection observer = server.connect()) {
			createTable(server);
			Map<String, Long> first = GlobalStatusCounters.read(observer);
			Map<String, Long> snapshotCost = minus(GlobalStatusCounters.read(observer), first);
			Sink sink = new Sink() {

				volatile Object last;

				@Override
				public void consume(Object value) {
					this.last = value;
				}

			};
			for (String driver : drivers) {
				for (String setup : setups) {
					JdbcStatementsBenchmark state = new JdbcStatementsBenchmark();
					state.driver = driver;
					state.setup = setup;
					state.server = server;
					Tally tally = new Tally();
					Map<String, Long> before = GlobalStatusCounters.read(observer);
					state.startPool();
					long warmupStatements = run(state.pool, warmup, sink)[0];
					tally.add(minus(minus(GlobalStatusCounters.read(observer), before), snapshotCost),
							warmupStatements);
					states.put(driver + " " + setup, state);
					tallies.put(driver + " " + setup, tally);
				}
			}
			List<String> order = new ArrayList<>(states.keySet());
			for (int round = 0; round < rounds; round++) {
				for (String key : order) {
					Map<String, Long> before = GlobalStatusCounters.read(observer);
					long[] slice = run(states.get(key).pool, seconds, sink);
					Tally tally = tallies.get(key);
					tally.add(minus(minus(GlobalStatusCounters.read(observer), before), snapshotCost), slice[0]);
					tally.perSecond.add(slice[0] / (slice[1] / 1e9));
				}
				Collections.rotate(order, 1);
			}
			System.out.println();
			System.out
				.println("JDBC statements through a Hikari pool of " + POOL_SIZE + " on an embedded MariaDB 11.4: "
						+ "one update sent with execute() + one primary-key select per operation, 1 thread; " + rounds
						+ " interleaved rounds of " + seconds + " s per setup after " + warmup + " s of warm-up each");
			System.out.printf(Locale.ROOT, "%-8s %-11s %13s %17s %10s %11s %9s %14s %8s%n", "driver", "setup",
					"statements/s", "(min-max)", "Questions", "Com_select", "Com_stmt", "Com_stmt", "x plain");
			System.out.printf(Locale.ROOT, "%-8s %-11s %13s %17s %10s %11s %9s %14s %8s%n", "", "", "(median)", "",
					"/stmt", "/stmt", "_prepare", "_execute/stmt", "");
			for (String driver : drivers) {
				double plain = median(tallies.get(driver + " plain").perSecond);
				for (String setup : setups) {
					Tally tally = tallies.get(driver + " " + setup);
					double median = median(tally.perSecond);
					System.out.printf(Locale.ROOT, "%-8s %-11s %13.0f %8.0f-%-8.0f %10.3f %11.3f %9d %14.3f %8.2f%n",
							driver, setup, median, Collections.min(tally.perSecond), Collections.max(tally.perSecond),
							tally.perStatement("Questions"), tally.perStatement("Com_select"),
							tally.total("Com_stmt_prepare"), tally.perStatement("Com_stmt_execute"), median / plain);
				}
				double starter = median(tallies.get(driver + " starter").perSecond);
				double tuned = median(tallies.get(driver + " hand-tuned").perSecond);
				System.out.printf(Locale.ROOT,
						"%-8s starter / plain = %.2fx   hand-tuned / plain = %.2fx   starter / hand-tuned = %.2fx%n",
						driver, starter / plain, tuned / plain, starter / tuned);
			}
			System.out.println("Counters over the whole run of each setup ("
					+ tallies.values().iterator().next().statements
					+ "+ statements). Questions/stmt 1.000 = no extra round trip; Com_select/stmt 0.500 = the selects "
					+ "only (1.000: a read-only probe before each update); Com_stmt_prepare = prepares in all, at most "
					+ POOL_SIZE + " connections x 2 distinct SQL = " + POOL_SIZE * 2 + ".");
		}
		finally {
			for (JdbcStatementsBenchmark state : states.values()) {
				state.pool.close();
			}
			server.close();
		}
	}

	/**
	 * What one setup did: statements, server counters, statements per second per round.
	 */
	private static final class Tally {

		private final Map<String, Long> counters = new LinkedHashMap<>();

		private final List<Double> perSecond = new ArrayList<>();

		private long statements;

		void add(Map<String, Long> delta, long statements) {
			delta.forEach((name, value) -> this.counters.merge(name, value, Long::sum));
			this.statements += statements;
		}

		long total(String counter) {
			return this.counters.getOrDefault(counter, 0L);
		}

		double perStatement(String counter) {
			return total(counter) / (double) this.statements;
		}

	}

	private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
		Map<String, Long> delta = new LinkedHashMap<>();
		after.forEach((name, value) -> delta.put(name, value - before.getOrDefault(name, 0L)));
		return delta;
	}

	/**
	 * Runs operations for a while.
	 * @return statements sent and nanoseconds taken
	 */
	private static long[] run(HikariDataSource pool, double seconds, Sink sink) throws Exception {
		long started = System.nanoTime();
		long deadline = started + (long) (seconds * 1e9);
		long operations = 0;
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (System.nanoTime() < deadline) {
			operation(pool, random.nextInt(ROWS) + 1, sink);
			operations++;
		}
		return new long[] { operations * STATEMENTS_PER_OPERATION, System.nanoTime() - started };
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
