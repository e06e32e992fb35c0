package dev.safedefaults.benchmarks.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.stream.LongStream;

import dev.safedefaults.benchmarks.jdbc.batch.BatchInsertApplication;
import dev.safedefaults.benchmarks.jdbc.batch.BatchRow;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 23, {@code jdbc.batch-inserts-not-rewritten}: inserting N rows (1000 by default)
 * in one transaction on PostgreSQL through pgjdbc and Hikari, six ways: JdbcTemplate row
 * by row ({@code update} per row), JdbcTemplate {@code batchUpdate} without and with
 * pgjdbc's {@code reWriteBatchedInserts=true}; Hibernate without batching
 * ({@code hibernate.jdbc.batch_size=1}), with batches of 50 without and with the rewrite.
 * The three applications (one per pool setting) run in one JVM on the machine's
 * PostgreSQL (127.0.0.1:5432, user postgres, trust), in a database of their own, in
 * interleaved rounds (rotating order) after a warm-up; each timed insert starts on an
 * empty table (emptied before the clock starts). The statements each way sends are
 * counted by the server in a separate, untimed pass: a statement-level trigger counts the
 * {@code INSERT} statements it runs (pg_stat_statements needs a server restart to load).
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.jdbc.BatchInsertBenchmark -Dbenchmark="5 1000 3"}
 * (rounds, rows per insert, inserts per setup and round).
 */
public final class BatchInsertBenchmark {

	private static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";

	private static final String DATABASE = "safe_defaults_batch_insert_benchmark";

	private static final String INSERT = "INSERT INTO batch_rows (id, name) VALUES (?, ?)";

	private BatchInsertBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		int rows = (args.length > 1) ? Integer.parseInt(args[1]) : 1000;
		int inserts = (args.length > 2) ? Integer.parseInt(args[2]) : 3;
		try (Connection admin = DriverManager.getConnection(SERVER + "postgres", "postgres", "");
				Statement statement = admin.createStatement()) {
			statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
			statement.execute("CREATE DATABASE " + DATABASE);
		}
		Map<String, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
		try (Connection observer = DriverManager.getConnection(SERVER + DATABASE, "postgres", "")) {
			try (Statement statement = observer.createStatement()) {
				statement.execute("CREATE TABLE batch_rows (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)");
			}
			contexts.put("plain", start("?reWriteBatchedInserts=false", 1));
			contexts.put("batched", start("?reWriteBatchedInserts=false", 50));
			contexts.put("rewritten", start("?reWriteBatchedInserts=true", 50));
			Map<String, IntConsumer> ways = new LinkedHashMap<>();
			ways.put("JdbcTemplate, row by row", (n) -> jdbcRowByRow(contexts.get("plain"), n));
			ways.put("JdbcTemplate batchUpdate, no rewrite", (n) -> jdbcBatch(contexts.get("plain"), n));
			ways.put("JdbcTemplate batchUpdate, rewrite", (n) -> jdbcBatch(contexts.get("rewritten"), n));
			ways.put("Hibernate, no batching", (n) -> persist(contexts.get("plain"), n));
			ways.put("Hibernate batch_size=50, no rewrite", (n) -> persist(contexts.get("batched"), n));
			ways.put("Hibernate batch_size=50, rewrite", (n) -> persist(contexts.get("rewritten"), n));
			Map<String, Long> statements = countStatements(observer, ways, rows);
			Map<String, List<Double>> millis = new LinkedHashMap<>();
			for (String way : ways.keySet()) {
				millis.put(way, new ArrayList<>());
				for (int i = 0; i < inserts; i++) {
					timed(observer, ways.get(way), rows);
				}
			}
			List<String> order = new ArrayList<>(ways.keySet());
			for (int round = 0; round < rounds; round++) {
				for (String way : order) {
					for (int i = 0; i < inserts; i++) {
						millis.get(way).add(timed(observer, ways.get(way), rows));
					}
				}
				Collections.rotate(order, 1);
			}
			print(rounds, rows, inserts, statements, millis);
		}
		finally {
			contexts.values().forEach(ConfigurableApplicationContext::close);
			try (Connection admin = DriverManager.getConnection(SERVER + "postgres", "postgres", "");
					Statement statement = admin.createStatement()) {
				statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
			}
		}
	}

	private static ConfigurableApplicationContext start(String parameters, int batchSize) {
		return new SpringApplicationBuilder(BatchInsertApplication.class).web(WebApplicationType.NONE)
			.properties("spring.datasource.url=" + SERVER + DATABASE + parameters,
					"spring.datasource.username=postgres", "spring.datasource.hikari.maximum-pool-size=2",
					"spring.jpa.hibernate.ddl-auto=none", "spring.jpa.open-in-view=false",
					"spring.jpa.properties.hibernate.jdbc.batch_size=" + batchSize, "spring.main.banner-mode=off")
			.run();
	}

	private static void jdbcRowByRow(ConfigurableApplicationContext context, int rows) {
		JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
		context.getBean(TransactionTemplate.class)
			.executeWithoutResult(
					(status) -> LongStream.rangeClosed(1, rows).forEach((id) -> jdbc.update(INSERT, id, "row " + id)));
	}

	private static void jdbcBatch(ConfigurableApplicationContext context, int rows) {
		JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
		List<Object[]> args = LongStream.rangeClosed(1, rows)
			.mapToObj((id) -> new Object[] { id, "row " + id })
			.toList();
		context.getBean(TransactionTemplate.class).executeWithoutResult((status) -> jdbc.batchUpdate(INSERT, args));
	}

	private static void persist(ConfigurableApplicationContext context, int rows) {
		EntityManager entityManager = SharedEntityManagerCreator
			.createSharedEntityManager(context.getBean(EntityManagerFactory.class));
		context.getBean(TransactionTemplate.class)
			.executeWithoutResult((status) -> LongStream.rangeClosed(1, rows)
				.forEach((id) -> entityManager.persist(new BatchRow(id, "row " + id))));
	}

	/** One insert on an empty table, in milliseconds. */
	private static double timed(Connection observer, IntConsumer way, int rows) throws Exception {
		try (Statement statement = observer.createStatement()) {
			statement.execute("TRUNCATE batch_rows");
		}
		long started = System.nanoTime();
		way.accept(rows);
		double millis = (System.nanoTime() - started) / 1e6;
		try (Statement statement = observer.createStatement();
				var result = statement.executeQuery("SELECT count(*) FROM batch_rows")) {
			result.next();
			if (result.getLong(1) != rows) {
				throw new IllegalStateException("Inserted " + result.getLong(1) + " rows instead of " + rows);
			}
		}
		return millis;
	}

	/** The INSERT statements the server ran for one insert of each way, untimed. */
	private static Map<String, Long> countStatements(Connection observer, Map<String, IntConsumer> ways, int rows)
			throws Exception {
		try (Statement statement = observer.createStatement()) {
			statement.execute("CREATE TABLE insert_statements (n BIGINT NOT NULL)");
			statement.execute("INSERT INTO insert_statements VALUES (0)");
			statement.execute("CREATE FUNCTION count_insert_statement() RETURNS trigger LANGUAGE plpgsql "
					+ "AS $$ BEGIN UPDATE insert_statements SET n = n + 1; RETURN NULL; END $$");
			statement.execute("CREATE TRIGGER batch_rows_insert_statements AFTER INSERT ON batch_rows "
					+ "FOR EACH STATEMENT EXECUTE FUNCTION count_insert_statement()");
		}
		Map<String, Long> statements = new LinkedHashMap<>();
		for (Map.Entry<String, IntConsumer> way : ways.entrySet()) {
			long before = insertStatements(observer);
			timed(observer, way.getValue(), rows);
			statements.put(way.getKey(), insertStatements(observer) - before);
		}
		try (Statement statement = observer.createStatement()) {
			statement.execute("DROP TRIGGER batch_rows_insert_statements ON batch_rows");
		}
		return statements;
	}

	private static long insertStatements(Connection observer) throws Exception {
		try (Statement statement = observer.createStatement();
				var result = statement.executeQuery("SELECT n FROM insert_statements")) {
			result.next();
			return result.getLong(1);
		}
	}

	private static void print(int rounds, int rows, int inserts, Map<String, Long> statements,
			Map<String, List<Double>> millis) {
		System.out.println();
		System.out.println("Batch inserts on PostgreSQL (pgjdbc, Hikari of 2, Spring JdbcTemplate and Hibernate 7): "
				+ rows + " rows in one transaction; " + rounds + " interleaved rounds of " + inserts
				+ " inserts per way after " + inserts + " warm-up inserts each");
		System.out.printf(Locale.ROOT, "%-38s %14s %17s %12s %14s%n", "way", "ms (median)", "(min-max)", "rows/s",
				"INSERTs/tx");
		for (String way : millis.keySet()) {
			List<Double> values = millis.get(way);
			double median = median(values);
			System.out.printf(Locale.ROOT, "%-38s %14.1f %8.1f-%-8.1f %12.0f %14d%n", way, median,
					Collections.min(values), Collections.max(values), rows / (median / 1000), statements.get(way));
		}
		List<String> ways = new ArrayList<>(millis.keySet());
		ratio(millis, ways.get(0), ways.get(1));
		ratio(millis, ways.get(1), ways.get(2));
		ratio(millis, ways.get(0), ways.get(2));
		ratio(millis, ways.get(3), ways.get(4));
		ratio(millis, ways.get(4), ways.get(5));
		ratio(millis, ways.get(3), ways.get(5));
		System.out.println("INSERTs/tx: INSERT statements the server ran for one insert of " + rows
				+ " rows, counted by a statement-level trigger in an untimed pass.");
	}

	private static void ratio(Map<String, List<Double>> millis, String slower, String faster) {
		System.out.printf(Locale.ROOT, "%s / %s = %.2fx faster (median time)%n", faster, slower,
				median(millis.get(slower)) / median(millis.get(faster)));
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
