package dev.safedefaults.sample.pricing;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The downstream pricing service, through OpenFeign with upstream defaults; the
 * {@code naive} and {@code tuned} profiles swap its codec (see
 * {@link PricingClientConfiguration}).
 */
@FeignClient(name = "pricing", url = "${sample.downstream.url}", configuration = PricingClientConfiguration.class)
public interface PricingClient {

	@GetMapping("/prices/{id}")
	Price price(@PathVariable("id") long id, @RequestParam("fail") boolean fail);

}
