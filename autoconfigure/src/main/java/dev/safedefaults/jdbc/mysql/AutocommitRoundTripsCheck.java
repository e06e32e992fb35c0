package dev.safedefaults.jdbc.mysql;

import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.jdbc.HibernateOnHikari;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.resource.transaction.spi.TransactionCoordinatorBuilder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Finds Hibernate on a MySQL-protocol Hikari pool that auto-commits while Hibernate does
 * not know that the pool's connections come with auto-commit off
 * ({@code hibernate.connection.provider_disables_autocommit}): Hibernate then switches
 * auto-commit off before every transaction and on again after it, two extra statements
 * per transaction ({@code SET autocommit=0}, {@code SET autocommit=1}; measured in
 * {@code AutocommitRoundTripsOnEmbeddedMariaDbTests}). It also finds the opposite, which
 * is a correctness problem: Hibernate told that auto-commit is off while the pool
 * auto-commits runs every transaction in auto-commit mode.
 * <p>
 * The fix is a trade, and the finding says so (issue 23, measured per page in
 * {@code AutocommitRoundTripsPerPageTests} and {@code JpaPagesBenchmark}): on a pool that
 * does not auto-commit, Hikari rolls back every connection handed back after a query
 * outside a transaction. It stays raised with open-in-view on: open-in-view holds one
 * connection per request, so it bounds that cost to one {@code ROLLBACK} per request,
 * where without it each query outside a transaction costs one.
 * <p>
 * MySQL-protocol pools only: pgjdbc sends nothing for {@code setAutoCommit} (it starts a
 * transaction with a {@code BEGIN} sent together with the first statement), so the two
 * extra round trips do not exist on PostgreSQL
 * ({@code AutocommitRoundTripsOnPostgreSqlTests} counts them on the wire).
 * <p>
 * It reads what Hibernate runs with ({@code SessionFactoryOptions}), so the setting
 * counts wherever it came from: {@code spring.jpa.properties.*}, a
 * {@code HibernatePropertiesCustomizer}, Boot's own rule (it adds the property when the
 * pool does not auto-commit), {@code hibernate.properties}. It finds the factories
 * through {@link HibernateOnHikari}; the two, like PostgreSQL's batch rewrite check, need
 * Hibernate and Spring ORM, and are loaded only when those are on the class path. No I/O.
 */
final class AutocommitRoundTripsCheck implements Check {

	/**
	 * Statements Hibernate adds per transaction on an auto-commit pool, measured (the
	 * finding's texts say so).
	 */
	static final int EXTRA_STATEMENTS_PER_TRANSACTION = 2;

	static final String POOL_PROPERTY = "spring.datasource.hikari.auto-commit";

	static final String HIBERNATE_PROPERTY = "spring.jpa.properties.hibernate.connection.provider_disables_autocommit";

	private final ListableBeanFactory beanFactory;

	AutocommitRoundTripsCheck(ListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public String name() {
		return MySqlProtocolFindings.AUTOCOMMIT_ROUND_TRIPS.id();
	}

	@Override
	public List<Finding> run() {
		return HibernateOnHikari.checkEach(this.beanFactory, AutocommitRoundTripsCheck::check);
	}

	private static @Nullable Finding check(HibernateOnHikari hibernateOnHikari) {
		HikariDataSource pool = hibernateOnHikari.pool();
		if (PoolDriverSettings.of(pool) == null) {
			return null;
		}
		SessionFactoryImplementor sessionFactory = hibernateOnHikari.sessionFactory();
		if (isJta(sessionFactory)) {
			// JTA: Hibernate does not toggle auto-commit itself.
			return null;
		}
		boolean providerDisablesAutocommit = sessionFactory.getSessionFactoryOptions()
			.doesConnectionProviderDisableAutoCommit();
		String subject = hibernateOnHikari.subject();
		if (pool.isAutoCommit() && !providerDisablesAutocommit) {
			return MySqlProtocolFindings.AUTOCOMMIT_ROUND_TRIPS.raise(subject);
		}
		if (pool.isAutoCommit() && providerDisablesAutocommit) {
			return MySqlProtocolFindings.AUTOCOMMIT_MISMATCH.raise(subject);
		}
		return null;
	}

	private static boolean isJta(SessionFactoryImplementor sessionFactory) {
		TransactionCoordinatorBuilder builder = sessionFactory.getServiceRegistry()
			.getService(TransactionCoordinatorBuilder.class);
		return builder != null && builder.isJta();
	}

}
