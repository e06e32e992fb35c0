package dev.safedefaults.sample.orders;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

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
import org.springframework.web.context.request.async.DeferredResult;

/**
 * An order's price, asked of the downstream pricing service off the request thread, as
 * services write it to free their request threads: {@code GET
 * /api/orders/{id}/price-async} returns a {@code Callable}, which Spring MVC runs on its
 * async executor (Boot's {@code applicationTaskExecutor}); {@code GET
 * /api/orders/{id}/price-deferred} returns a {@code DeferredResult} set when a
 * {@code CompletableFuture.supplyAsync(...)} on the common pool ends. Both call the
 * {@code RestClient} the application built itself ({@link HandBuiltRestClientPricing}, no
 * timeout), answer the price, or 502 when the call fails. Neither bounds the wait:
 * Tomcat's async timeout (30 s unless {@code spring.mvc.async.request-timeout} says
 * otherwise) ends the request, not the call.
 */
@RestController
class AsyncPriceController {

	private static final Log logger = LogFactory.getLog(AsyncPriceController.class);

	private final HandBuiltRestClientPricing pricing;

	AsyncPriceController(HandBuiltRestClientPricing pricing) {
		this.pricing = pricing;
	}

	@GetMapping("/api/orders/{id}/price-async")
	Callable<ResponseEntity<Price>> priceAsync(@PathVariable long id) {
		return () -> priced(id);
	}

	@GetMapping("/api/orders/{id}/price-deferred")
	DeferredResult<ResponseEntity<Price>> priceDeferred(@PathVariable long id) {
		DeferredResult<ResponseEntity<Price>> result = new DeferredResult<>();
		CompletableFuture.supplyAsync(() -> priced(id)).whenComplete((priced, failure) -> {
			if (failure != null) {
				logger.error("Pricing failed for order " + id, failure);
				result.setResult(ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR).build());
			}
			else {
				result.setResult(priced);
			}
		});
		return result;
	}

	private ResponseEntity<Price> priced(long id) {
		try {
			return ResponseEntity.ok(this.pricing.price(id, false));
		}
		catch (RestClientException ex) {
			logger.error("Pricing failed for order " + id, ex);
			return ResponseEntity.status(HttpStatus.BAD_GATEWAY).build();
		}
	}

}
