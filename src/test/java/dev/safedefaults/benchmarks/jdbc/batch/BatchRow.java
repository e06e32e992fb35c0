package dev.safedefaults.benchmarks.jdbc.batch;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The row the batch insert benchmark inserts: an assigned id (so Hibernate can batch) and
 * a name.
 */
@Entity
@Table(name = "batch_rows")
public class BatchRow {

	@Id
	private Long id;

	private String name;

	protected BatchRow() {
	}

	public BatchRow(Long id, String name) {
		this.id = id;
		this.name = name;
	}

}
