package dev.safedefaults.jdbc.postgresql;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.SecretMasker;
import dev.safedefaults.support.HikariPools;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Issue 23, the pooler trap at run time: counts, per PostgreSQL pool, the statements that
 * failed because a server-side prepared statement was missing on the server session
 * (SQLState 26000, "prepared statement "S_1" does not exist") or already there (42P05,
 * "already exists"), and publishes {@code jdbc.prepared-statement-errors} with the counts
 * from the first one on. The count comes from Hikari's own extension point: every
 * {@link SQLException} a pool's connection or statement throws passes through the pool's
 * {@link SQLExceptionOverride} (HikariCP 7 asks it about each one), which this wraps,
 * keeping the application's own override's answer. A pool already started, or a Hikari
 * without {@code setExceptionOverride}, is left alone.
 */
final class PreparedStatementErrors implements BeanPostProcessor {

	/** The findings store source these findings are published under. */
	static final String SOURCE = PreparedStatementErrors.class.getName();

	static final String DOES_NOT_EXIST = "26000";

	static final String ALREADY_EXISTS = "42P05";

	private final ObjectProvider<FindingsStore> store;

	/** Per pool subject: its masked URL and the two counts. Guarded by {@code this}. */
	private final Map<String, Counts> counts = new LinkedHashMap<>();

	PreparedStatementErrors(ObjectProvider<FindingsStore> store) {
		this.store = store;
	}

	private static final class Counts {

		private final String maskedUrl;

		private long doesNotExist;

		private long alreadyExists;

		Counts(String maskedUrl) {
			this.maskedUrl = maskedUrl;
		}

	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof HikariDataSource pool && PostgreSqlSession.isPostgreSql(pool) && !pool.isRunning()) {
			try {
				String subject = HikariPools.subject(beanName, pool);
				String maskedUrl = String.valueOf(SecretMasker.maskUrl(pool.getJdbcUrl()));
				pool.setExceptionOverride(new Counting(this, subject, maskedUrl, pool.getExceptionOverride()));
			}
			catch (RuntimeException | LinkageError ex) {
				// A sealed configuration, or a HikariCP without the instance setter: not
				// counted.
			}
		}
		return bean;
	}

	/**
	 * Counts one failure when its SQLState is one of the two.
	 * @param subject the pool
	 * @param maskedUrl its URL, masked
	 * @param ex the failure
	 */
	void count(String subject, String maskedUrl, SQLException ex) {
		String state = ex.getSQLState();
		if (!DOES_NOT_EXIST.equals(state) && !ALREADY_EXISTS.equals(state)) {
			return;
		}
		FindingsStore findings = this.store.getIfAvailable();
		synchronized (this) {
			Counts pool = this.counts.computeIfAbsent(subject, (key) -> new Counts(maskedUrl));
			if (DOES_NOT_EXIST.equals(state)) {
				pool.doesNotExist++;
			}
			else {
				pool.alreadyExists++;
			}
			if (findings != null) {
				findings.publish(SOURCE, findings());
			}
		}
	}

	/**
	 * The findings, one per pool that had a failure.
	 * @return the findings
	 */
	synchronized List<Finding> findings() {
		List<Finding> findings = new ArrayList<>();
		this.counts.forEach((subject, pool) -> findings.add(PostgreSqlFindings.PREPARED_STATEMENT_ERRORS.raise(subject,
				pool.maskedUrl, pool.doesNotExist, pool.alreadyExists, pool.maskedUrl.contains("?") ? "&" : "?")));
		return findings;
	}

	/** The pool's exception override, counting on its way. */
	private record Counting(PreparedStatementErrors errors, String subject, String maskedUrl,
			@Nullable SQLExceptionOverride delegate) implements SQLExceptionOverride {

		@java.lang.Override
		public SQLExceptionOverride.Override adjudicate(SQLException ex) {
			this.errors.count(this.subject, this.maskedUrl, ex);
			return (this.delegate != null) ? this.delegate.adjudicate(ex)
					: SQLExceptionOverride.Override.CONTINUE_EVICT;
		}

	}

}
