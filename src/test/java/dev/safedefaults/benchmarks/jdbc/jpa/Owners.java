package dev.safedefaults.benchmarks.jdbc.jpa;

import org.springframework.transaction.annotation.Transactional;

/**
 * The two transactions of the benchmark: a read-only {@code findById}, and a read and a
 * rename.
 */
public class Owners {

	private final OwnerRepository repository;

	public Owners(OwnerRepository repository) {
		this.repository = repository;
	}

	public String read(long id) {
		return this.repository.findById(id).orElseThrow().getName();
	}

	@Transactional
	public void rename(long id, String name) {
		this.repository.findById(id).orElseThrow().setName(name);
	}

}
