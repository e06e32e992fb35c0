package dev.safedefaults.sample.pricing;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/**
 * The default and the tuned profiles: the HTTP service group's client, built once at
 * startup.
 */
@Component
@Profile("!naive")
class HttpServiceGroupPricing implements RestClientPricing {

	private final PricingService pricing;

	HttpServiceGroupPricing(PricingService pricing) {
		this.pricing = pricing;
	}

	@Override
	public Price price(long id, boolean fail) {
		return this.pricing.price(id, fail);
	}

}
