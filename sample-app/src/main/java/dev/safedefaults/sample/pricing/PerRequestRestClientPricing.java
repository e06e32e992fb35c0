package dev.safedefaults.sample.pricing;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

/**
 * Incident 1 on Boot's {@code RestClient} (profile {@code naive}): Boot's
 * {@code RestClient.Builder} is a prototype, and this code asks for one and builds a
 * client, with its HTTP client and converters, on every request, as the naive Feign codec
 * builds its converters on every call.
 */
@Component
@Profile("naive")
class PerRequestRestClientPricing implements RestClientPricing {

	private final ObjectProvider<RestClient.Builder> builders;

	private final String baseUrl;

	PerRequestRestClientPricing(ObjectProvider<RestClient.Builder> builders,
			@Value("${sample.downstream.url}") String baseUrl) {
		this.builders = builders;
		this.baseUrl = baseUrl;
	}

	@Override
	public Price price(long id, boolean fail) {
		RestClient client = this.builders.getObject().baseUrl(this.baseUrl).build();
		return client.get().uri("/prices/{id}?fail={fail}", id, fail).retrieve().body(Price.class);
	}

}
