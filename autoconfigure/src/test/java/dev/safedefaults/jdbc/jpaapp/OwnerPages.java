package dev.safedefaults.jdbc.jpaapp;

import org.springframework.transaction.annotation.Transactional;

/**
 * What three kinds of page of a JPA application do with the database, as their
 * controllers would call it: a transactional read, a transactional write, and reads
 * through the repository outside any transaction (no {@code @Transactional} on the way).
 */
public class OwnerPages {

	private final OwnerRepository owners;

	public OwnerPages(OwnerRepository owners) {
		this.owners = owners;
	}

	/** One read-only transaction, two queries. */
	@Transactional(readOnly = true)
	public int transactionalRead() {
		return this.owners.findById(1L).orElseThrow().getName().length() + this.owners.findByName("Grace").size();
	}

	/** One transaction that reads an owner and renames it. */
	@Transactional
	public void transactionalWrite(String name) {
		this.owners.findById(2L).orElseThrow().setName(name);
	}

	/** Two repository queries, no transaction. */
	public int readOutsideTransaction() {
		return this.owners.findByName("Ada").size() + this.owners.findByName("Grace").size();
	}

}
