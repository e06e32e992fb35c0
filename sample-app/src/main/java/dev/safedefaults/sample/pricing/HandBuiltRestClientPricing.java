package dev.safedefaults.sample.pricing;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * The downstream call through a {@code RestClient} the application built itself with
 * {@code RestClient.builder()}, as most services build their clients: Boot's
 * {@code spring.http.clients.*} never reach it, so it has the library's default, no
 * timeout (issue 44). {@code GET /api/orders/{id}?client=hand-built} calls it.
 */
@Component
public class HandBuiltRestClientPricing {

	private final RestClient client;

	HandBuiltRestClientPricing(@Qualifier("handBuiltPricingClient") RestClient client) {
		this.client = client;
	}

	/**
	 * Asks the downstream service for a price.
	 * @param id the order id
	 * @param fail whether the downstream should answer 500
	 * @return the price
	 */
	public Price price(long id, boolean fail) {
		return this.client.get().uri("/prices/{id}?fail={fail}", id, fail).retrieve().body(Price.class);
	}

}
