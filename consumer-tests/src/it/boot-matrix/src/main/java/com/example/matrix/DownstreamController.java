package com.example.matrix;

import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Calls a downstream through a client the application builds by hand, once, with
 * {@code RestClient.builder()}: no timeout of Boot's or the starter's reaches it. On the
 * class path of the newest 4.1 profile it runs on Apache HttpClient 5
 * ({@code HttpClients.createSystem()}, Framework's default), elsewhere on the JDK client.
 */
@RestController
class DownstreamController {

	private final RestClient handBuilt;

	DownstreamController(Environment environment) {
		this.handBuilt = RestClient.builder()
			.baseUrl(environment.getProperty("downstream.url", "http://127.0.0.1:9"))
			.build();
	}

	@GetMapping("/downstream")
	String downstream() {
		return this.handBuilt.get().uri("/").retrieve().body(String.class);
	}

}
