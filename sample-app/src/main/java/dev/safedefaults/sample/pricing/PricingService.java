package dev.safedefaults.sample.pricing;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.service.annotation.GetExchange;

/**
 * The downstream pricing service as an HTTP service client: the HTTP service group
 * {@value #GROUP} ({@code @ImportHttpServices} on the application), configured by
 * {@code spring.http.serviceclient.pricing.base-url}, on Boot's {@code RestClient}. The
 * same call as {@link PricingClient}, in the client API Spring recommends now.
 */
public interface PricingService {

	/** The HTTP service group's name. */
	String GROUP = "pricing";

	@GetExchange("/prices/{id}")
	Price price(@PathVariable("id") long id, @RequestParam("fail") boolean fail);

}
