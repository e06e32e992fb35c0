package dev.safedefaults.benchmarks.jdbc;

import dev.safedefaults.testsupport.EmbeddedMariaDb;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.safedefaults.benchmarks.jdbc.jpa.JpaBenchmarkApplication;
import dev.safedefaults.benchmarks.jdbc.jpa.Owners;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 18, {@code jdbc.autocommit-round-trips}: the statements and the throughput of JPA
 * transactions (Spring Data JPA + Hibernate + Hikari, MySQL Connector/J with the
 * starter's defaults) on an embedded MariaDB 11.4, with the pool auto-committing (Boot's
 * default, which the starter reports and leaves) against the fix the finding names
 * ({@code spring.datasource.hikari.auto-commit=false} and
 * {@code hibernate.connection.provider_disables_autocommit=true}). Each operation is two
 * transactions: a read-only {@code findById} and a read-and-rename. The two applications
 * run in one JVM on one server, in interleaved rounds (rotating order) after a warm-up,
 * one at a time, so the server's counters read around each slice are that setup's.
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.jdbc.JpaTransactionsBenchmark -Dbenchmark="7 2 3"}
 * (rounds, seconds per setup and round, warm-up seconds).
 */
public final class JpaTransactionsBenchmark {

	private static final List<String> COUNTERS = List.of("Questions", "Com_set_option", "Com_commit", "Com_rollback",
			"Com_select", "Com_update");

	private JpaTransactionsBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 7;
		double seconds = (args.length > 1) ? Double.parseDouble(args[1]) : 2;
		double warmup = (args.length > 2) ? Double.parseDouble(args[2]) : 3;
		Map<String, String[]> setups = new LinkedHashMap<>();
		setups.put("auto-commit pool (default)", new String[0]);
		setups.put("fixed (2 properties)", new String[] { "spring.datasource.hikari.auto-commit=false",
				"spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true" });
		EmbeddedMariaDb server = EmbeddedMariaDb.start();
		Map<String, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
		Map<String, List<Double>> perSecond = new LinkedHashMap<>();
		Map<String, Map<String, Long>> counters = new LinkedHashMap<>();
		Map<String, Long> transactions = new LinkedHashMap<>();
		try (Connection observer = server.connect()) {
			try (Statement statement = observer.createStatement()) {
				statement.execute("CREATE DATABASE IF NOT EXISTS bench");
				statement.execute("CREATE TABLE bench.owners (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)");
				statement.execute("INSERT INTO bench.owners VALUES (1, 'Ada'), (2, 'Grace')");
			}
			// What one snapshot adds to the counters (SHOW STATUS counts itself): two
			// back to back.
			Map<String, Long> first = counters(observer);
			Map<String, Long> snapshotCost = minus(counters(observer), first);
			for (Map.Entry<String, String[]> setup : setups.entrySet()) {
				ConfigurableApplicationContext context = new SpringApplicationBuilder(JpaBenchmarkApplication.class)
					.web(WebApplicationType.NONE)
					.properties("spring.datasource.url=" + server.url("mysql", ""), "spring.datasource.username=root",
							"spring.datasource.password=", "spring.datasource.hikari.maximum-pool-size=4",
							"spring.jpa.hibernate.ddl-auto=none", "spring.jpa.open-in-view=false",
							"spring.jpa.database-platform=org.hibernate.dialect.MariaDBDialect",
							"spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=false",
							"spring.main.banner-mode=off")
					.properties(setup.getValue())
					.run();
				contexts.put(setup.getKey(), context);
				run(context.getBean(Owners.class), warmup);
				perSecond.put(setup.getKey(), new ArrayList<>());
				counters.put(setup.getKey(), new LinkedHashMap<>());
				transactions.put(setup.getKey(), 0L);
			}
			List<String> order = new ArrayList<>(setups.keySet());
			for (int round = 0; round < rounds; round++) {
				for (String key : order) {
					Map<String, Long> before = counters(observer);
					long[] slice = run(contexts.get(key).getBean(Owners.class), seconds);
					Map<String, Long> delta = minus(minus(counters(observer), before), snapshotCost);
					delta.forEach((name, value) -> counters.get(key).merge(name, value, Long::sum));
					transactions.merge(key, slice[0], Long::sum);
					perSecond.get(key).add(slice[0] / (slice[1] / 1e9));
				}
				Collections.rotate(order, 1);
			}
		}
		finally {
			contexts.values().forEach(ConfigurableApplicationContext::close);
			server.close();
		}
		System.out.println();
		System.out.println("JPA transactions (Spring Data JPA + Hibernate + Hikari of 4, MySQL Connector/J with the "
				+ "starter's defaults) on an embedded MariaDB 11.4, 1 thread, half read-only findById, half "
				+ "read-and-rename; " + rounds + " interleaved rounds of " + seconds + " s per setup after " + warmup
				+ " s of warm-up each");
		System.out.printf(Locale.ROOT, "%-28s %12s %17s %10s %15s %11s %13s%n", "setup", "tx/s (median)", "(min-max)",
				"stmts/tx", "Com_set_option", "Com_commit", "Com_rollback");
		for (String key : setups.keySet()) {
			List<Double> rates = perSecond.get(key);
			double tx = transactions.get(key);
			Map<String, Long> total = counters.get(key);
			System.out.printf(Locale.ROOT, "%-28s %12.0f %8.0f-%-8.0f %10.3f %15.3f %11.3f %13.3f%n", key,
					median(rates), Collections.min(rates), Collections.max(rates), total.get("Questions") / tx,
					total.get("Com_set_option") / tx, total.get("Com_commit") / tx, total.get("Com_rollback") / tx);
		}
		List<String> keys = new ArrayList<>(setups.keySet());
		double before = median(perSecond.get(keys.get(0)));
		double after = median(perSecond.get(keys.get(1)));
		List<Double> pairRatios = new ArrayList<>();
		for (int i = 0; i < rounds; i++) {
			pairRatios.add(perSecond.get(keys.get(1)).get(i) / perSecond.get(keys.get(0)).get(i));
		}
		System.out.printf(Locale.ROOT, "fixed / default = %.2fx (median tx/s); per round %.2f-%.2f%n", after / before,
				Collections.min(pairRatios), Collections.max(pairRatios));
		System.out.println("Per transaction, statements counted by the server (Questions, which counts "
				+ "Com_stmt_execute too) and SET statements (Com_set_option: SET autocommit, SET SESSION "
				+ "TRANSACTION READ ONLY/WRITE).");
	}

	/**
	 * Alternates the two transactions for a while: transactions done and nanoseconds
	 * taken.
	 */
	private static long[] run(Owners owners, double seconds) {
		long started = System.nanoTime();
		long deadline = started + (long) (seconds * 1e9);
		long count = 0;
		while (System.nanoTime() < deadline) {
			owners.read(1);
			owners.rename(2, "name " + count);
			count += 2;
		}
		return new long[] { count, System.nanoTime() - started };
	}

	private static Map<String, Long> counters(Connection observer) throws Exception {
		return GlobalStatusCounters.read(observer, COUNTERS);
	}

	private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
		Map<String, Long> delta = new LinkedHashMap<>();
		after.forEach((name, value) -> delta.put(name, value - before.getOrDefault(name, 0L)));
		return delta;
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
