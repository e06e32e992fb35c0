package com.example.consumer;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "consumer_jpa_notes")
public class Note {

	@Id
	@GeneratedValue
	private Long id;

	private String text;

	protected Note() {
	}

	public Note(String text) {
		this.text = text;
	}

	public Long getId() {
		return this.id;
	}

	public String getText() {
		return this.text;
	}

}
