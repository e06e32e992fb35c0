package com.example.consumer;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.server.ResponseStatusException;

import static org.springframework.http.HttpStatus.BAD_GATEWAY;
import static org.springframework.http.HttpStatus.NOT_FOUND;

@RestController
public class NoteController {

	private final NoteRepository notes;

	private final RestClient pricing;

	private final RestClient apachePricing;

	public NoteController(NoteRepository notes, RestClient pricingClient, RestClient apachePricingClient) {
		this.notes = notes;
		this.pricing = pricingClient;
		this.apachePricing = apachePricingClient;
	}

	@PostMapping("/notes")
	public Long create(@RequestBody String text) {
		return this.notes.save(new Note(text)).getId();
	}

	@GetMapping("/notes/{id}")
	public String read(@PathVariable Long id) {
		return this.notes.findById(id).map(Note::getText).orElseThrow(() -> new ResponseStatusException(NOT_FOUND));
	}

	/**
	 * The note, then its price from the pricing service. With spring.jpa.open-in-view
	 * (Boot's default) the connection the read took is held until the request ends, the
	 * remote call included.
	 */
	@GetMapping("/notes/{id}/priced")
	public String priced(@PathVariable Long id) {
		return priced(id, this.pricing);
	}

	/** The same through the Apache HttpClient 5 client. */
	@GetMapping("/notes/{id}/priced-apache")
	public String pricedApache(@PathVariable Long id) {
		return priced(id, this.apachePricing);
	}

	private String priced(Long id, RestClient client) {
		String text = read(id);
		try {
			return text + " " + client.get().uri("/prices/{id}", id).retrieve().body(String.class);
		}
		catch (RestClientException ex) {
			throw new ResponseStatusException(BAD_GATEWAY, "pricing unavailable", ex);
		}
	}

}
