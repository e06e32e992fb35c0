package com.example.consumer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * The pricing service's client, built by hand with {@code RestClient.builder()} as most
 * services build theirs: no timeout of Boot's or the starter's reaches it (issue 44).
 */
@Configuration(proxyBeanMethods = false)
class PricingClientConfiguration {

	@Bean
	RestClient pricingClient(@Value("${pricing.url}") String pricingUrl) {
		return RestClient.builder().baseUrl(pricingUrl).build();
	}

}
