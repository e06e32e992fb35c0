package dev.safedefaults.jdbc.jpaapp;

import org.springframework.transaction.annotation.Transactional;

/**
 * A service as an application writes it: one transaction that reads an owner and renames
 * it.
 */
public class OwnerService {

	private final OwnerRepository owners;

	public OwnerService(OwnerRepository owners) {
		this.owners = owners;
	}

	@Transactional
	public void rename(long id, String name) {
		this.owners.findById(id).orElseThrow().setName(name);
	}

}
