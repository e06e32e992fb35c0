package dev.safedefaults.benchmarks.jdbc;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.safedefaults.benchmarks.jdbc.jpa.JpaBenchmarkApplication;
import dev.safedefaults.benchmarks.jdbc.jpa.Pages;
import dev.safedefaults.testsupport.EmbeddedMariaDb;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 23, {@code jdbc.autocommit-round-trips} per page: does the fix the finding names
 * ({@code spring.datasource.hikari.auto-commit=false} +
 * {@code hibernate.connection.provider_disables_autocommit=true}) pay on a JPA web
 * application's pages, with open-in-view on (Boot's default) and off? Each transaction
 * saves {@code SET autocommit=0/1}; each connection Hikari takes back after a query
 * outside a transaction costs a {@code ROLLBACK}. Two page mixes: "mixed" (a read-only
 * transaction, a read-and-rename transaction, two repository queries outside any
 * transaction, in turn) and "outside only" (the last kind alone). Four applications
 * (open-in-view on/off × Boot's default/fixed; Spring Data JPA + Hibernate + Hikari of 4,
 * MySQL Connector/J with the starter's defaults) in one JVM on one embedded MariaDB 11.4,
 * one at a time, interleaved rounds in rotating order, the server's counters read around
 * each slice. {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark.main=dev.safedefaults.benchmarks.jdbc.JpaPagesBenchmark -Dbenchmark="7 1 3"}
 * (rounds, seconds per slice, warm-up seconds).
 */
public final class JpaPagesBenchmark {

	private static final List<String> COUNTERS = List.of("Questions", "Com_set_option", "Com_commit", "Com_rollback");

	private static final List<String> MIXES = List.of("mixed", "outside only");

	private static final String[] FIX = { "spring.datasource.hikari.auto-commit=false",
			"spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true" };

	private JpaPagesBenchmark() {
	}

	/** One application: its pages and whether they run in view. */
	private record Setup(String name, boolean openInView, String[] properties) {
	}

	/** What one setup did with one mix, summed over the rounds. */
	private static final class Totals {

		private final List<Double> pagesPerSecond = new ArrayList<>();

		private final Map<String, Long> counters = new LinkedHashMap<>();

		private long pages;

	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 7;
		double seconds = (args.length > 1) ? Double.parseDouble(args[1]) : 1;
		double warmup = (args.length > 2) ? Double.parseDouble(args[2]) : 3;
		List<Setup> setups = List.of(new Setup("open-in-view, auto-commit pool (Boot's default)", true, new String[0]),
				new Setup("open-in-view, fixed", true, FIX),
				new Setup("no open-in-view, auto-commit pool", false, new String[0]),
				new Setup("no open-in-view, fixed", false, FIX));
		EmbeddedMariaDb server = EmbeddedMariaDb.start();
		Map<String, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
		Map<String, Totals> totals = new LinkedHashMap<>();
		try (Connection observer = server.connect()) {
			try (Statement statement = observer.createStatement()) {
				// The schema the URLs name (the observer is connected to it).
				statement.execute("CREATE TABLE owners (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL, "
						+ "KEY owners_name (name))");
				statement.execute("INSERT INTO owners VALUES (1, 'Ada'), (2, 'Grace')");
			}
			Map<String, Long> first = counters(observer);
			Map<String, Long> snapshotCost = minus(counters(observer), first);
			for (Setup setup : setups) {
				ConfigurableApplicationContext context = new SpringApplicationBuilder(JpaBenchmarkApplication.class)
					.web(WebApplicationType.NONE)
					.properties("spring.datasource.url=" + server.url("mysql", ""), "spring.datasource.username=root",
							"spring.datasource.password=", "spring.datasource.hikari.maximum-pool-size=4",
							"spring.jpa.hibernate.ddl-auto=none",
							"spring.jpa.database-platform=org.hibernate.dialect.MariaDBDialect",
							"spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=false",
							"spring.main.banner-mode=off")
					.properties(setup.properties())
					.run();
				contexts.put(setup.name(), context);
				for (String mix : MIXES) {
					run(setup, context, mix, warmup);
					totals.put(setup.name() + "|" + mix, new Totals());
				}
			}
			List<Setup> order = new ArrayList<>(setups);
			for (int round = 0; round < rounds; round++) {
				for (String mix : MIXES) {
					for (Setup setup : order) {
						Map<String, Long> before = counters(observer);
						long[] slice = run(setup, contexts.get(setup.name()), mix, seconds);
						Map<String, Long> delta = minus(minus(counters(observer), before), snapshotCost);
						Totals total = totals.get(setup.name() + "|" + mix);
						delta.forEach((name, value) -> total.counters.merge(name, value, Long::sum));
						total.pages += slice[0];
						total.pagesPerSecond.add(slice[0] / (slice[1] / 1e9));
					}
				}
				Collections.rotate(order, 1);
			}
		}
		finally {
			contexts.values().forEach(ConfigurableApplicationContext::close);
			server.close();
		}
		print(setups, totals, rounds, seconds, warmup);
	}

	private static void print(List<Setup> setups, Map<String, Totals> totals, int rounds, double seconds,
			double warmup) {
		System.out.println();
		System.out.println("JPA pages (Spring Data JPA + Hibernate + Hikari of 4, MySQL Connector/J with the starter's "
				+ "defaults) on an embedded MariaDB 11.4, 1 thread; " + rounds + " interleaved rounds of " + seconds
				+ " s per setup and mix after " + warmup + " s of warm-up each");
		System.out.printf(Locale.ROOT, "%-14s %-48s %14s %17s %12s %10s %10s %12s%n", "mix", "setup", "pages/s (med)",
				"(min-max)", "stmts/page", "SET/page", "COMMIT/p", "ROLLBACK/p");
		for (String mix : MIXES) {
			for (Setup setup : setups) {
				Totals total = totals.get(setup.name() + "|" + mix);
				double pages = total.pages;
				System.out.printf(Locale.ROOT, "%-14s %-48s %14.0f %8.0f-%-8.0f %12.3f %10.3f %10.3f %12.3f%n", mix,
						setup.name(), median(total.pagesPerSecond), Collections.min(total.pagesPerSecond),
						Collections.max(total.pagesPerSecond), total.counters.get("Questions") / pages,
						total.counters.get("Com_set_option") / pages, total.counters.get("Com_commit") / pages,
						total.counters.get("Com_rollback") / pages);
			}
			for (int i = 0; i < setups.size(); i += 2) {
				List<Double> before = totals.get(setups.get(i).name() + "|" + mix).pagesPerSecond;
				List<Double> after = totals.get(setups.get(i + 1).name() + "|" + mix).pagesPerSecond;
				List<Double> ratios = new ArrayList<>();
				for (int round = 0; round < before.size(); round++) {
					ratios.add(after.get(round) / before.get(round));
				}
				System.out.printf(Locale.ROOT,
						"%-14s %s: fixed / default = %.2fx (median of per-round ratios, "
								+ "%.2f-%.2f); medians %.2fx%n",
						mix, setups.get(i).openInView() ? "open-in-view" : "no open-in-view", median(ratios),
						Collections.min(ratios), Collections.max(ratios), median(after) / median(before));
			}
		}
		System.out.println("A page of the mix 'mixed' is one of its three pages (each in turn); statements are the "
				+ "server's Questions (Com_stmt_execute included), SET its Com_set_option.");
	}

	/** Runs the mix's pages in turn for a while: pages done and nanoseconds taken. */
	private static long[] run(Setup setup, ConfigurableApplicationContext context, String mix, double seconds) {
		Pages pages = context.getBean(Pages.class);
		EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
		List<Runnable> kinds = new ArrayList<>();
		if (mix.equals("mixed")) {
			kinds.add(pages::transactionalRead);
			kinds.add(() -> pages.transactionalWrite("name " + System.nanoTime()));
		}
		kinds.add(pages::readOutsideTransaction);
		long started = System.nanoTime();
		long deadline = started + (long) (seconds * 1e9);
		long count = 0;
		while (System.nanoTime() < deadline) {
			for (Runnable kind : kinds) {
				if (setup.openInView()) {
					Pages.inView(factory, kind);
				}
				else {
					kind.run();
				}
				count++;
			}
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
