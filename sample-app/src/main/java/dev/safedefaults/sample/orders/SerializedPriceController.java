package dev.safedefaults.sample.orders;

import dev.safedefaults.sample.pricing.HandBuiltRestClientPricing;
import dev.safedefaults.sample.pricing.Price;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClientException;

/**
 * An order's price asked of the downstream pricing service one call at a time, under a
 * monitor, as services guard a downstream that takes one caller: {@code GET
 * /api/orders/{id}/price-serialized}. The call runs while the monitor is held, through
 * the {@code RestClient} the application built itself
 * ({@link HandBuiltRestClientPricing}, no timeout): when the downstream hangs, one
 * request waits for its answer and every other waits for the monitor (I/O under a lock,
 * which the stuck-request watch's lock finding advises against). Answers the price, or
 * 502 when the call fails.
 */
@RestController
class SerializedPriceController {

	private static final Log logger = LogFactory.getLog(SerializedPriceController.class);

	private final Object oneCallAtATime = new Object();

	private final HandBuiltRestClientPricing pricing;

	SerializedPriceController(HandBuiltRestClientPricing pricing) {
		this.pricing = pricing;
	}

	@GetMapping("/api/orders/{id}/price-serialized")
	ResponseEntity<Price> priceSerialized(@PathVariable long id) {
		synchronized (this.oneCallAtATime) {
			try {
				return ResponseEntity.ok(this.pricing.price(id, false));
			}
			catch (RestClientException ex) {
				logger.error("Pricing failed for order " + id, ex);
				return ResponseEntity.status(HttpStatus.BAD_GATEWAY).build();
			}
		}
	}

}
