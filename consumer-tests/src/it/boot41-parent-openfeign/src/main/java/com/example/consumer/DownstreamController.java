package com.example.consumer;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.ResourceAccessException;

/** Calls the downstream through the HTTP service group "downstream". */
@RestController
class DownstreamController {

	private final DownstreamService downstream;

	DownstreamController(DownstreamService downstream) {
		this.downstream = downstream;
	}

	/** The downstream's answer, or 504 naming the exception that ended the call. */
	@GetMapping("/call-downstream/{id}")
	ResponseEntity<String> callDownstream(@PathVariable long id) {
		try {
			return ResponseEntity.ok(this.downstream.price(id));
		}
		catch (ResourceAccessException ex) {
			return ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT)
				.body(ex.getMostSpecificCause().getClass().getName());
		}
	}

}
