package dev.safedefaults.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;
import dev.safedefaults.support.HikariPools;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.orm.jpa.EntityManagerFactoryInfo;

/**
 * One of the application's JPA entity manager factories that runs Hibernate on a Hikari
 * pool, with what Hibernate runs with ({@link SessionFactoryImplementor}): what the JPA
 * checks read (the MySQL protocol's auto-commit round trips, pgjdbc's batch rewrite: each
 * in its driver's sub-package, which is why the two share this one here). Needs Hibernate
 * and Spring ORM on the class path, as its users do. What the two checks still have in
 * common is a {@code Check}'s shape (a bean factory, {@code name()}, {@code run()}
 * calling {@link #checkEach}); what each reads and raises is its driver's, so they have
 * no base class.
 *
 * @param factoryName the factory's bean name
 * @param pool the Hikari pool behind the factory's data source
 * @param sessionFactory Hibernate's session factory, with the settings it runs with
 */
public record HibernateOnHikari(String factoryName, HikariDataSource pool, SessionFactoryImplementor sessionFactory) {

	/**
	 * Runs a per-factory check on every entity manager factory that is Hibernate on a
	 * Hikari pool; a factory of another JPA provider, or without a Hikari pool, is
	 * skipped.
	 * @param beanFactory where the entity manager factories are
	 * @param check a factory's finding, or {@code null} for none
	 * @return the findings, in the factories' order
	 */
	public static List<Finding> checkEach(ListableBeanFactory beanFactory,
			Function<HibernateOnHikari, @Nullable Finding> check) {
		List<Finding> findings = new ArrayList<>();
		beanFactory.getBeansOfType(EntityManagerFactory.class, false, false).forEach((name, factory) -> {
			HibernateOnHikari hibernateOnHikari = from(name, factory);
			Finding finding = (hibernateOnHikari != null) ? check.apply(hibernateOnHikari) : null;
			if (finding != null) {
				findings.add(finding);
			}
		});
		return findings;
	}

	/** The factory as Hibernate on a Hikari pool, or {@code null} when it is not. */
	private static @Nullable HibernateOnHikari from(String factoryName, EntityManagerFactory factory) {
		if (!(factory instanceof EntityManagerFactoryInfo info) || info.getDataSource() == null) {
			return null;
		}
		HikariDataSource pool = HikariPools.unwrap(info.getDataSource());
		if (pool == null) {
			return null;
		}
		SessionFactoryImplementor sessionFactory = hibernate(factory);
		return (sessionFactory != null) ? new HibernateOnHikari(factoryName, pool, sessionFactory) : null;
	}

	private static @Nullable SessionFactoryImplementor hibernate(EntityManagerFactory factory) {
		try {
			return factory.unwrap(SessionFactoryImplementor.class);
		}
		catch (RuntimeException ex) {
			// Another JPA provider.
			return null;
		}
	}

	/**
	 * How a finding names the factory: its pool as {@link HikariPools#subject} names it,
	 * then the factory's bean name.
	 * @return the subject
	 */
	public String subject() {
		return HikariPools.subject(this.factoryName, this.pool) + " (" + this.factoryName + ")";
	}

}
