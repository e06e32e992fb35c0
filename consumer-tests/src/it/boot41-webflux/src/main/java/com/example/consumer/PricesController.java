package com.example.consumer;

import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The pricing service called through two WebClients: one from Boot's
 * {@code WebClient.Builder} (the starter's timeouts reach it, and its calls are joined to
 * the exchange that makes them), one from {@code WebClient.create()}, which no default of
 * Boot's reaches and which waits for ever on a downstream that never answers.
 */
@RestController
class PricesController {

	private final WebClient.Builder builder;

	private final WebClient booted;

	private final WebClient created;

	private final String pricingUrl;

	PricesController(WebClient.Builder builder, @Value("${pricing.url}") String pricingUrl) {
		this.builder = builder;
		this.booted = builder.baseUrl(pricingUrl).build();
		this.created = WebClient.create(pricingUrl);
		this.pricingUrl = pricingUrl;
	}

	@GetMapping("/prices/{id}/booted")
	Mono<String> booted(@PathVariable String id) {
		return this.booted.get().uri("/prices/{id}", id).retrieve().bodyToMono(String.class);
	}

	@GetMapping("/prices/{id}/created")
	Mono<String> created(@PathVariable String id) {
		return this.created.get().uri("/prices/{id}", id).retrieve().bodyToMono(String.class);
	}

	/**
	 * A WebClient built per request from Boot's builder: each build applies every codec
	 * customizer again (spring-framework #27325). The place where issue 52's point 3, a
	 * WebClient built per request named as RestClient's is, is shown on this build.
	 */
	@GetMapping("/prices/{id}/per-request")
	Mono<String> perRequest(@PathVariable String id) {
		return this.builder.clone()
			.baseUrl(this.pricingUrl)
			.build()
			.get()
			.uri("/prices/{id}", id)
			.retrieve()
			.bodyToMono(String.class);
	}

}
