package dev.safedefaults.sample;

import dev.safedefaults.sample.pricing.PricingService;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.web.service.registry.ImportHttpServices;

/**
 * A small order service that uses safe-defaults as a customer would: one dependency, no
 * code of the starter's, only properties and public beans. It calls its downstream
 * pricing service two ways: an OpenFeign client and an HTTP service group.
 */
@SpringBootApplication
@EnableFeignClients
@ImportHttpServices(group = PricingService.GROUP, types = PricingService.class)
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
