package dev.safedefaults.jdbc.postgresql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.LongStream;

import dev.safedefaults.jdbc.jpaapp.JpaApplication;
import dev.safedefaults.jdbc.jpaapp.Owner;
import dev.safedefaults.testsupport.Slow;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.database.JdbcBatchItemWriter;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Issue 23: why {@code reWriteBatchedInserts=true} is a finding
 * ({@code jdbc.batch-inserts-not-rewritten}, INFO) and not a default, on a real
 * PostgreSQL 15. pgjdbc (42.7, {@code BatchResultHandler}) replaces the update count of
 * every row of a rewritten multi-row insert with {@code SUCCESS_NO_INFO} (-2) as soon as
 * one row of it was inserted. Hibernate accepts that ({@code Expectations.checkBatched}
 * only logs it) and keeps its results; JdbcTemplate's {@code batchUpdate} hands the -2s
 * to the caller, so code that sums or reads them changes result; Spring Batch's
 * {@code JdbcBatchItemWriter} (its {@code assertUpdates} rejects only 0) no longer sees
 * an item of an {@code INSERT … ON CONFLICT DO NOTHING} that inserted nothing. Should
 * pgjdbc ever report exact counts, these tests fail and the default can be reconsidered.
 * <p>
 * The server counts the {@code INSERT} statements it runs with a statement-level trigger
 * (no {@code pg_stat_statements} needed). The tests run in a database of their own,
 * dropped afterwards.
 */
@Slow
class BatchRewriteResultsOnPostgreSqlTests {

	private static final String DATABASE = "safe_defaults_batch_rewrite";

	private static final String URL = "jdbc:postgresql://127.0.0.1:5432/" + DATABASE;

	private static final String REWRITE = "?reWriteBatchedInserts=true";

	private final ApplicationContextRunner jpa = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
				DataJpaRepositoriesAutoConfiguration.class, TransactionAutoConfiguration.class))
		.withUserConfiguration(JpaApplication.class)
		.withPropertyValues("spring.datasource.username=postgres", "spring.jpa.hibernate.ddl-auto=none",
				"spring.jpa.properties.hibernate.jdbc.batch_size=50");

	@BeforeAll
	static void createDatabase() throws SQLException {
		PoolStatusOnPostgreSqlTests.requirePostgreSql();
		try (Connection connection = DriverManager.getConnection(PoolStatusOnPostgreSqlTests.URL, "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
			statement.execute("CREATE DATABASE " + DATABASE);
		}
	}

	@AfterAll
	static void dropDatabase() throws SQLException {
		try (Connection connection = DriverManager.getConnection(PoolStatusOnPostgreSqlTests.URL, "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)");
		}
	}

	@BeforeEach
	void createTables() throws SQLException {
		try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
				Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS owners, items, insert_statements");
			statement.execute(JpaApplication.SCHEMA[0]);
			statement.execute("CREATE TABLE items (id BIGINT PRIMARY KEY)");
			statement.execute("CREATE TABLE insert_statements (n INT NOT NULL)");
			statement.execute("INSERT INTO insert_statements VALUES (0)");
			statement.execute("CREATE OR REPLACE FUNCTION count_insert_statement() RETURNS trigger LANGUAGE plpgsql "
					+ "AS $$ BEGIN UPDATE insert_statements SET n = n + 1; RETURN NULL; END $$");
			for (String table : List.of("owners", "items")) {
				statement.execute("CREATE TRIGGER " + table + "_insert_statements AFTER INSERT ON " + table
						+ " FOR EACH STATEMENT EXECUTE FUNCTION count_insert_statement()");
			}
		}
	}

	@Test
	void hibernateKeepsItsResultsAndSendsFewerStatementsWithTheRewrite() {
		assertThat(persistOwners(URL, 120)).as("INSERT statements without the rewrite").isEqualTo(120);
		assertThat(rows("owners")).isEqualTo(120);
		// 50 + 50 + 20 rows: pgjdbc splits each batch into powers of two (32 + 16 + 2,
		// 16 + 4), each a multi-row INSERT.
		assertThat(persistOwners(URL + REWRITE, 120)).as("INSERT statements with the rewrite").isEqualTo(8);
		assertThat(rows("owners")).as("every row there, no exception from Hibernate's batch checks").isEqualTo(120);
	}

	@Test
	void jdbcTemplateBatchUpdateCountsBecomeSuccessNoInfo() {
		// Four rows: pgjdbc rewrites them into one four-row INSERT (powers of two).
		assertThat(insertItems(URL, "INSERT INTO items VALUES (?)", 1, 2, 3, 4)).containsExactly(1, 1, 1, 1);
		assertThat(insertItems(URL + REWRITE, "INSERT INTO items VALUES (?)", 5, 6, 7, 8))
			.as("a sum of the counts gives -8, not 4")
			.containsExactly(-2, -2, -2, -2);
		String idempotent = "INSERT INTO items VALUES (?) ON CONFLICT DO NOTHING";
		assertThat(insertItems(URL, idempotent, 1, 9, 10, 11)).containsExactly(0, 1, 1, 1);
		assertThat(insertItems(URL + REWRITE, idempotent, 1, 12, 13, 14))
			.as("which row was already there is no longer known")
			.containsExactly(-2, -2, -2, -2);
	}

	@Test
	void springBatchWriterNoLongerSeesAnItemThatInsertedNothing() throws Exception {
		String idempotent = "INSERT INTO items VALUES (?) ON CONFLICT DO NOTHING";
		write(URL, "INSERT INTO items VALUES (?)", 1L, 2L, 3L, 4L);
		write(URL + REWRITE, "INSERT INTO items VALUES (?)", 5L, 6L, 7L, 8L);
		assertThat(rows("items")).as("plain inserts: the writer accepts -2").isEqualTo(8);
		assertThatExceptionOfType(EmptyResultDataAccessException.class)
			.as("assertUpdates catches the duplicate without the rewrite")
			.isThrownBy(() -> write(URL, idempotent, 9L, 1L, 10L, 11L))
			.withMessageContaining("Item 1 of 4 did not update any rows");
		// No transaction here: the three new rows stay (a step's transaction would roll
		// back).
		assertThat(rows("items")).isEqualTo(11);
		write(URL + REWRITE, idempotent, 12L, 1L, 13L, 14L);
		assertThat(rows("items")).as("with the rewrite the duplicate passes unseen").isEqualTo(14);
	}

	private long persistOwners(String url, int count) {
		new JdbcTemplate(dataSource(URL)).update("DELETE FROM owners");
		long before = insertStatements();
		this.jpa.withPropertyValues("spring.datasource.url=" + url).run((context) -> {
			assertThat(context).hasNotFailed();
			EntityManager entityManager = context.getBean(EntityManagerFactory.class).createEntityManager();
			try {
				entityManager.getTransaction().begin();
				LongStream.rangeClosed(1, count).forEach((id) -> entityManager.persist(new Owner(id, "owner " + id)));
				entityManager.getTransaction().commit();
			}
			finally {
				entityManager.close();
			}
		});
		return insertStatements() - before;
	}

	private static int[] insertItems(String url, String sql, long... ids) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource(url));
		return jdbc.batchUpdate(sql, LongStream.of(ids).mapToObj((id) -> new Object[] { id }).toList());
	}

	private static void write(String url, String sql, Long... ids) throws Exception {
		JdbcBatchItemWriter<Long> writer = new JdbcBatchItemWriter<>();
		writer.setDataSource(dataSource(url));
		writer.setSql(sql);
		writer.setItemPreparedStatementSetter((id, statement) -> statement.setLong(1, id));
		writer.afterPropertiesSet();
		writer.write(Chunk.of(ids));
	}

	private static long rows(String table) {
		return new JdbcTemplate(dataSource(URL)).queryForObject("SELECT count(*) FROM " + table, Long.class);
	}

	private static long insertStatements() {
		return new JdbcTemplate(dataSource(URL)).queryForObject("SELECT n FROM insert_statements", Long.class);
	}

	private static PGSimpleDataSource dataSource(String url) {
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setUrl(url);
		dataSource.setUser("postgres");
		return dataSource;
	}

}
