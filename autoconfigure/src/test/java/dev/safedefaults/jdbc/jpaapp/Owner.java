package dev.safedefaults.jdbc.jpaapp;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The entity of the JPA test application: an owner, read and renamed by id.
 */
@Entity
@Table(name = "owners")
public class Owner {

	@Id
	private Long id;

	private String name;

	protected Owner() {
	}

	public Owner(Long id, String name) {
		this.id = id;
		this.name = name;
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
