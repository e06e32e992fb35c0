package dev.safedefaults.jdbc.postgresql;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.SecretMasker;
import dev.safedefaults.jdbc.HibernateOnHikari;
import dev.safedefaults.jdbc.JdbcUrlQuery;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Issue 23: Hibernate batches inserts ({@code hibernate.jdbc.batch_size} set by the
 * application, wherever: {@code spring.jpa.properties.*}, a customizer,
 * {@code hibernate.properties}; above 1 as Hibernate runs with it) on a PostgreSQL pool
 * without pgjdbc's {@code reWriteBatchedInserts=true}: pgjdbc then sends a batch of N
 * inserts as N statements (one round trip, N executions), where with it they become
 * multi-row inserts. Reports {@code jdbc.batch-inserts-not-rewritten} (INFO) and applies
 * no default: with the rewrite, the batch's update counts come back as
 * {@code SUCCESS_NO_INFO} (-2), which code that checks them must accept. No I/O.
 */
final class PostgreSqlBatchRewriteCheck implements Check {

	/** pgjdbc's key, case-sensitive as pgjdbc reads it. */
	static final String REWRITE_KEY = "reWriteBatchedInserts";

	private final ListableBeanFactory beanFactory;

	PostgreSqlBatchRewriteCheck(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public String name() {
		return PostgreSqlFindings.BATCH_INSERTS_NOT_REWRITTEN.id();
	}

	@Override
	public List<Finding> run() {
		return HibernateOnHikari.checkEach(this.beanFactory, PostgreSqlBatchRewriteCheck::check);
	}

	private static @Nullable Finding check(HibernateOnHikari hibernateOnHikari) {
		HikariDataSource pool = hibernateOnHikari.pool();
		if (pool.getJdbcUrl() == null || !PostgreSqlSession.isPostgreSql(pool)
				|| rewritesBatchedInserts(pool.getJdbcUrl(), pool.getDataSourceProperties())) {
			return null;
		}
		SessionFactoryImplementor sessionFactory = hibernateOnHikari.sessionFactory();
		int batchSize = sessionFactory.getSessionFactoryOptions().getJdbcBatchSize();
		if (batchSize <= 1 || !sessionFactory.getProperties().containsKey(AvailableSettings.STATEMENT_BATCH_SIZE)) {
			// Only batching the application asked for: Hibernate's PostgreSQL dialect
			// batches 15 by default, which says nothing about whether the application
			// inserts in bulk.
			return null;
		}
		return PostgreSqlFindings.BATCH_INSERTS_NOT_REWRITTEN.raise(hibernateOnHikari.subject(), batchSize,
				SecretMasker.maskUrl(pool.getJdbcUrl()), pool.getJdbcUrl().contains("?") ? "&" : "?");
	}

	/**
	 * Whether pgjdbc rewrites batched inserts, read as pgjdbc's {@code Driver.parseURL}
	 * reads it: the URL's parameter beats the data-source property (Hikari passes those
	 * to the driver, which lets the URL win); in the URL the key is taken raw and
	 * case-sensitive, the value percent-decoded, and the last occurrence wins; the value
	 * is parsed with {@link Boolean#parseBoolean} (no trimming). Off by default.
	 * <p>
	 * A copy of pgjdbc's reading (42.7.14), not a call to it: {@code Driver.parseURL} and
	 * {@code getPropertyInfo} would read the pool's own URL, and for a value that does
	 * not decode pgjdbc logs it (at FINE, a password too), and it reads nothing from a
	 * URL whose port is not a number. The default and the key's spelling are pgjdbc's
	 * ({@code PGProperty}; PgJdbcDefaultsTests).
	 */
	static boolean rewritesBatchedInserts(String jdbcUrl, Properties dataSourceProperties) {
		String fromUrl = null;
		for (Map.Entry<String, String> parameter : JdbcUrlQuery.parseQuery(jdbcUrl, UnaryOperator.identity(),
				JdbcUrlQuery::decode)) {
			if (parameter.getKey().equals(REWRITE_KEY)) {
				fromUrl = parameter.getValue();
			}
		}
		if (fromUrl != null) {
			return Boolean.parseBoolean(fromUrl);
		}
		// Hikari hands the driver each property as a string (toString of the value).
		Object fromProperties = dataSourceProperties.get(REWRITE_KEY);
		return fromProperties != null && Boolean.parseBoolean(fromProperties.toString());
	}

}
