package com.example.consumer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * The pricing service's clients, built by hand with {@code RestClient.builder()} as most
 * services build theirs: no timeout of Boot's or the starter's reaches them (issue 44).
 * One on the JDK {@code HttpClient} (which has no read timeout at all), one on Apache
 * HttpClient 5's classic client (3 minutes of silence), each with its library's defaults.
 */
@Configuration(proxyBeanMethods = false)
class PricingClientConfiguration {

	@Bean
	RestClient pricingClient(@Value("${pricing.url}") String pricingUrl) {
		return RestClient.builder().requestFactory(new JdkClientHttpRequestFactory()).baseUrl(pricingUrl).build();
	}

	@Bean
	RestClient apachePricingClient(@Value("${pricing.url}") String pricingUrl) {
		return RestClient.builder()
			.requestFactory(new HttpComponentsClientHttpRequestFactory())
			.baseUrl(pricingUrl)
			.build();
	}

}
