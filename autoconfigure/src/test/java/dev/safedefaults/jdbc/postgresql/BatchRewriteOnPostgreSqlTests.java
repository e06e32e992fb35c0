package dev.safedefaults.jdbc.postgresql;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.Severity;
import dev.safedefaults.jdbc.JdbcDefaultsAutoConfiguration;
import dev.safedefaults.jdbc.jpaapp.JpaApplication;
import dev.safedefaults.jdbc.mysql.MySqlProtocolDefaultsAutoConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23: {@code jdbc.batch-inserts-not-rewritten} on a Spring Data JPA application
 * whose pool is a real PostgreSQL 15 (see {@link PoolStatusOnPostgreSqlTests}): Hibernate
 * batching configured, pgjdbc's {@code reWriteBatchedInserts} off, as pgjdbc reads it
 * (the URL beats a data-source property; the key is case-sensitive).
 */
class BatchRewriteOnPostgreSqlTests {

	private static final String BATCH_SIZE = "spring.jpa.properties.hibernate.jdbc.batch_size=50";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
				DataJpaRepositoriesAutoConfiguration.class, TransactionAutoConfiguration.class,
				SafeDefaultsAutoConfiguration.class, JdbcDefaultsAutoConfiguration.class,
				MySqlProtocolDefaultsAutoConfiguration.class, PostgreSqlChecksAutoConfiguration.class))
		.withUserConfiguration(JpaApplication.class)
		.withPropertyValues("spring.datasource.username=postgres", "spring.datasource.name=owners",
				"spring.jpa.hibernate.ddl-auto=none", "spring.jpa.open-in-view=false",
				"safe-defaults.checks.enabled=false");

	@BeforeAll
	static void requirePostgreSql() {
		PoolStatusOnPostgreSqlTests.requirePostgreSql();
	}

	private List<Finding> check(String url, String... properties) {
		AtomicReference<List<Finding>> findings = new AtomicReference<>();
		this.runner.withPropertyValues("spring.datasource.url=" + url).withPropertyValues(properties).run((context) -> {
			assertThat(context).hasNotFailed();
			findings.set(context.getBean(PostgreSqlBatchRewriteCheck.class).run());
		});
		return findings.get();
	}

	@Test
	void informsWhenHibernateBatchesWithoutTheRewrite() {
		assertThat(check(PoolStatusOnPostgreSqlTests.URL, BATCH_SIZE)).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo(PostgreSqlFindings.BATCH_INSERTS_NOT_REWRITTEN.id());
			assertThat(finding.severity()).isEqualTo(Severity.INFO);
			assertThat(finding.subject()).isEqualTo("owners (entityManagerFactory)");
			assertThat(finding.message()).contains("up to 50 statements", "jdbc:postgresql://127.0.0.1:5432/test");
			assertThat(finding.fix()).contains("?reWriteBatchedInserts=true", "SUCCESS_NO_INFO");
		});
		assertThat(check(PoolStatusOnPostgreSqlTests.URL + "?reWriteBatchedInserts=false", BATCH_SIZE,
				"spring.datasource.hikari.data-source-properties.reWriteBatchedInserts=true"))
			.as("the URL's false beats the property's true")
			.singleElement()
			.satisfies((finding) -> assertThat(finding.fix()).contains("&reWriteBatchedInserts=true"));
		assertThat(check(PoolStatusOnPostgreSqlTests.URL + "?rewritebatchedinserts=true", BATCH_SIZE))
			.as("pgjdbc ignores the key in another case")
			.hasSize(1);
	}

	@Test
	void staysSilentWithTheRewriteOrWithoutBatching() {
		assertThat(check(PoolStatusOnPostgreSqlTests.URL + "?reWriteBatchedInserts=true", BATCH_SIZE)).isEmpty();
		assertThat(check(PoolStatusOnPostgreSqlTests.URL, BATCH_SIZE,
				"spring.datasource.hikari.data-source-properties.reWriteBatchedInserts=true"))
			.isEmpty();
		assertThat(check(PoolStatusOnPostgreSqlTests.URL)).as("no batching configured").isEmpty();
	}

}
