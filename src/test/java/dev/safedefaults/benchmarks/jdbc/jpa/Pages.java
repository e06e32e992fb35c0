package dev.safedefaults.benchmarks.jdbc.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.orm.jpa.EntityManagerHolder;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Three kinds of page of a JPA web application, as their controllers call the database: a
 * read-only transaction of two queries, a transaction that reads and renames, and two
 * repository queries outside any transaction. With open-in-view, a page runs inside what
 * Spring ORM's {@code OpenEntityManagerInViewInterceptor} does around a request: an
 * {@code EntityManager} bound to the thread for the whole page, closed after it.
 */
public class Pages {

	private final OwnerRepository repository;

	public Pages(OwnerRepository repository) {
		this.repository = repository;
	}

	@Transactional(readOnly = true)
	public int transactionalRead() {
		return this.repository.findById(1L).orElseThrow().getName().length()
				+ this.repository.findByName("Grace").size();
	}

	@Transactional
	public void transactionalWrite(String name) {
		this.repository.findById(2L).orElseThrow().setName(name);
	}

	public int readOutsideTransaction() {
		return this.repository.findByName("Ada").size() + this.repository.findByName("Grace").size();
	}

	/**
	 * Runs a page the way the open-in-view interceptor wraps a request: bind an
	 * {@code EntityManager} before, unbind and close it after.
	 * @param factory the application's entity manager factory
	 * @param page the page
	 */
	public static void inView(EntityManagerFactory factory, Runnable page) {
		EntityManager entityManager = factory.createEntityManager();
		TransactionSynchronizationManager.bindResource(factory, new EntityManagerHolder(entityManager));
		try {
			page.run();
		}
		finally {
			TransactionSynchronizationManager.unbindResource(factory);
			EntityManagerFactoryUtils.closeEntityManager(entityManager);
		}
	}

}
