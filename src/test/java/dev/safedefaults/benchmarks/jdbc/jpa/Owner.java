package dev.safedefaults.benchmarks.jdbc.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The benchmark's entity.
 */
@Entity
@Table(name = "owners")
public class Owner {

	@Id
	private Long id;

	private String name;

	protected Owner() {
	}

	public Long getId() {
		return this.id;
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

}
