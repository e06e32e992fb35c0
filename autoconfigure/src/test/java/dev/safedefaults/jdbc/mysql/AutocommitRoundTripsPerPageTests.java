package dev.safedefaults.jdbc.mysql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.MachineService;
import dev.safedefaults.jdbc.jpaapp.JpaApplication;
import dev.safedefaults.jdbc.jpaapp.OwnerPages;
import dev.safedefaults.jdbc.mysql.StatementCounters.Counts;
import dev.safedefaults.jdbc.postgresql.PostgreSqlChecksAutoConfiguration;
import dev.safedefaults.testsupport.Slow;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.orm.jpa.support.OpenEntityManagerInViewInterceptor;
import org.springframework.web.context.request.ServletWebRequest;

import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_COMMIT;
import static dev.safedefaults.jdbc.mysql.StatementCounters.COM_ROLLBACK;
import static dev.safedefaults.jdbc.mysql.StatementCounters.QUESTIONS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23: {@code jdbc.autocommit-round-trips} per page of a real Spring Data JPA +
 * Hibernate web application (Boot's own open-in-view interceptor, called around each page
 * as Spring MVC calls it) on the MariaDB 10.11 service the project's machines run at
 * 127.0.0.1:3306, in a database of its own. Three pages: a read-only transaction of two
 * queries, a transaction that reads and renames, two repository queries outside any
 * transaction; each with open-in-view on (Boot's default) and off, with the pool
 * auto-committing (Boot's default) and with the finding's fix. The server is shared, so
 * the counters are the pool's one session's ({@code SHOW SESSION STATUS} through it).
 */
@Slow
class AutocommitRoundTripsPerPageTests {

	private static final String HOST = "127.0.0.1";

	private static final int PORT = 3306;

	private static final int PAGES = 20;

	private static final String DATABASE = "autocommit_pages_"
			+ UUID.randomUUID().toString().replace("-", "").substring(0, 8);

	private static final String[] FIX = { AutocommitRoundTripsCheck.POOL_PROPERTY + "=false",
			AutocommitRoundTripsCheck.HIBERNATE_PROPERTY + "=true" };

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
				DataJpaRepositoriesAutoConfiguration.class, TransactionAutoConfiguration.class,
				SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
				MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
		.withUserConfiguration(JpaApplication.class)
		.withPropertyValues("spring.datasource.url=jdbc:mysql://" + HOST + ":" + PORT + "/" + DATABASE,
				"spring.datasource.username=root", "spring.datasource.password=", "spring.datasource.name=owners",
				"spring.datasource.hikari.maximum-pool-size=1", "spring.datasource.hikari.minimum-idle=1",
				"spring.jpa.hibernate.ddl-auto=none", "safe-defaults.checks.enabled=false",
				"spring.jpa.database-platform=org.hibernate.dialect.MariaDBDialect",
				"spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=false");

	@BeforeAll
	static void createTheDatabase() throws Exception {
		if (!MachineService.listens(HOST, PORT)) {
			MachineService.missing(JdbcDefaultsOnOlderMariaDbTests.REQUIRED_PROPERTY,
					"no MariaDB at " + HOST + ":" + PORT + " (root, no password): the per-page autocommit tests need "
							+ "the MariaDB service the project's machines run (start it with 'service mariadb start')");
		}
		try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + DATABASE);
		}
		try (Connection connection = connect(DATABASE); Statement statement = connection.createStatement()) {
			for (String sql : JpaApplication.SCHEMA) {
				statement.execute(sql);
			}
		}
	}

	@AfterAll
	static void dropTheDatabase() throws Exception {
		if (MachineService.listens(HOST, PORT)) {
			try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
				statement.execute("DROP DATABASE IF EXISTS " + DATABASE);
			}
		}
	}

	private static Connection connect(String database) throws Exception {
		return DriverManager.getConnection("jdbc:mariadb://" + HOST + ":" + PORT + "/" + database, "root", "");
	}

	/** A page as Spring MVC runs it: the open-in-view interceptor around the handler. */
	@FunctionalInterface
	private interface Handler {

		void handle(OwnerPages pages);

	}

	/**
	 * What one application sent per page of each kind, and what the check said.
	 */
	record Run(Map<String, Counts> pages, List<Finding> findings) {

		double per(String page, String counter) {
			return this.pages.get(page).get(counter) / (double) PAGES;
		}

	}

	static final String READ = "transactional read";

	static final String WRITE = "transactional write";

	static final String OUTSIDE = "reads outside a transaction";

	private Run run(boolean openInView, String... properties) {
		AtomicReference<Run> run = new AtomicReference<>();
		this.runner.withPropertyValues("spring.jpa.open-in-view=" + openInView)
			.withPropertyValues(properties)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				OpenEntityManagerInViewInterceptor interceptor = context
					.getBeanProvider(OpenEntityManagerInViewInterceptor.class)
					.getIfAvailable();
				assertThat(interceptor != null).as("Boot's open-in-view interceptor").isEqualTo(openInView);
				HikariDataSource pool = context.getBean(HikariDataSource.class);
				OwnerPages pages = context.getBean(OwnerPages.class);
				Map<String, Handler> handlers = new LinkedHashMap<>();
				handlers.put(READ, OwnerPages::transactionalRead);
				handlers.put(WRITE, (owners) -> owners.transactionalWrite("name " + System.nanoTime()));
				handlers.put(OUTSIDE, OwnerPages::readOutsideTransaction);
				Map<String, Counts> counts = new LinkedHashMap<>();
				for (Map.Entry<String, Handler> handler : handlers.entrySet()) {
					// Warm up: Hibernate's and the driver's first use prepare statements.
					page(interceptor, pages, handler.getValue());
					counts.put(handler.getKey(), StatementCounters.measureSession(pool::getConnection, () -> {
						for (int i = 0; i < PAGES; i++) {
							page(interceptor, pages, handler.getValue());
						}
					}));
				}
				run.set(new Run(counts, context.getBean(AutocommitRoundTripsCheck.class).run()));
			});
		return run.get();
	}

	private static void page(@Nullable OpenEntityManagerInViewInterceptor interceptor, OwnerPages pages,
			Handler handler) {
		if (interceptor == null) {
			handler.handle(pages);
			return;
		}
		ServletWebRequest request = new ServletWebRequest(new MockHttpServletRequest());
		interceptor.preHandle(request);
		try {
			handler.handle(pages);
			interceptor.postHandle(request, null);
		}
		finally {
			interceptor.afterCompletion(request, null);
		}
	}

	private static String describe(String setup, Run run) {
		StringBuilder text = new StringBuilder(setup).append(':');
		run.pages()
			.forEach((page, counts) -> text.append(String.format(java.util.Locale.ROOT,
					" %s %.2f statements (%.2f COMMIT, %.2f ROLLBACK);", page, counts.get(QUESTIONS) / (double) PAGES,
					counts.get(COM_COMMIT) / (double) PAGES, counts.get(COM_ROLLBACK) / (double) PAGES)));
		return text.toString();
	}

	private static final Map<String, Run> RUNS = new LinkedHashMap<>();

	/** Each application once for the whole class: four context starts, not twelve. */
	private Run cached(boolean openInView, boolean fixed) {
		return RUNS.computeIfAbsent(openInView + "/" + fixed, (key) -> {
			Run run = fixed ? run(openInView, FIX) : run(openInView);
			System.out
				.println(describe("open-in-view=" + openInView + (fixed ? ", fixed" : ", auto-commit pool"), run));
			return run;
		});
	}

	@Test
	void theFixSavesTwoStatementsPerTransactionalPageWithOrWithoutOpenInView() {
		for (boolean openInView : List.of(true, false)) {
			Run before = cached(openInView, false);
			Run after = cached(openInView, true);
			String counts = describe("before", before) + " / " + describe("after", after);
			for (String page : List.of(READ, WRITE)) {
				assertThat(before.per(page, QUESTIONS) - after.per(page, QUESTIONS)).as(counts)
					.isEqualTo(AutocommitRoundTripsCheck.EXTRA_STATEMENTS_PER_TRANSACTION);
				assertThat(after.per(page, COM_COMMIT)).as(counts).isEqualTo(1);
				assertThat(after.per(page, COM_ROLLBACK)).as(counts).isZero();
			}
		}
	}

	@Test
	void theFixCostsARollbackPerConnectionHandedBackAfterReadsOutsideATransaction() {
		// Two repository queries without a transaction. Open-in-view holds one connection
		// for the page: one ROLLBACK when the request ends.
		Run inViewBefore = cached(true, false);
		Run inViewAfter = cached(true, true);
		String counts = describe("before", inViewBefore) + " / " + describe("after", inViewAfter);
		assertThat(inViewBefore.per(OUTSIDE, COM_ROLLBACK)).as(counts).isZero();
		assertThat(inViewAfter.per(OUTSIDE, COM_ROLLBACK)).as(counts).isEqualTo(1);
		assertThat(inViewAfter.per(OUTSIDE, QUESTIONS) - inViewBefore.per(OUTSIDE, QUESTIONS)).as(counts).isEqualTo(1);
		// Without it each query borrows and hands back a connection of its own: one
		// ROLLBACK per query.
		Run before = cached(false, false);
		Run after = cached(false, true);
		counts = describe("before", before) + " / " + describe("after", after);
		assertThat(after.per(OUTSIDE, COM_ROLLBACK)).as(counts).isEqualTo(2);
		assertThat(after.per(OUTSIDE, QUESTIONS) - before.per(OUTSIDE, QUESTIONS)).as(counts).isEqualTo(2);
	}

	@Test
	void theFindingStaysRaisedWithOpenInViewAndStatesTheTrade() {
		for (boolean openInView : List.of(true, false)) {
			assertThat(cached(openInView, false).findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(MySqlProtocolFindings.AUTOCOMMIT_ROUND_TRIPS.id());
				assertThat(finding.message()).contains("2 extra round trips", "one ROLLBACK", "outside a transaction",
						"open-in-view");
				assertThat(finding.fix()).contains("spring.datasource.hikari.auto-commit=false", "does not pay",
						"spring.jpa.open-in-view=false", "without @Transactional",
						"safe-defaults.checks.disabled=jdbc.autocommit-round-trips");
			});
			assertThat(cached(openInView, true).findings()).isEmpty();
		}
	}

}
