package dev.safedefaults.sample.pricing;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * A client built by hand in a {@code @Bean}, the way most services build theirs: from
 * {@code RestClient.builder()}, not from Boot's {@code RestClient.Builder} bean.
 */
@Configuration(proxyBeanMethods = false)
class HandBuiltClientConfiguration {

	@Bean
	RestClient handBuiltPricingClient(@Value("${sample.downstream.url}") String downstreamUrl) {
		return RestClient.builder().baseUrl(downstreamUrl).build();
	}

}
