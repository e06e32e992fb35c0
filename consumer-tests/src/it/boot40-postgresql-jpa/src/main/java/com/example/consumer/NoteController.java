package com.example.consumer;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import static org.springframework.http.HttpStatus.NOT_FOUND;

@RestController
public class NoteController {

	private final NoteRepository notes;

	public NoteController(NoteRepository notes) {
		this.notes = notes;
	}

	@PostMapping("/notes")
	public Long create(@RequestBody String text) {
		return this.notes.save(new Note(text)).getId();
	}

	@GetMapping("/notes/{id}")
	public String read(@PathVariable Long id) {
		return this.notes.findById(id).map(Note::getText).orElseThrow(() -> new ResponseStatusException(NOT_FOUND));
	}

}
