package dev.safedefaults.httpclient.feign;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registered in every Feign client's own context (through a {@code default.}-prefixed
 * {@link FeignClientSpecification}), whether the starter's converters are on or not: the
 * two observers of {@link FeignConverterBuilds}, named after the client (OpenFeign puts
 * its name in the context's environment).
 */
@Configuration(proxyBeanMethods = false)
class ClientObserversConfiguration {

	@Bean
	ConverterBuildCounter safeDefaultsFeignConverterBuildCounter(
			@Value("${spring.cloud.openfeign.client.name}") String client, FeignConverterBuilds builds) {
		return new ConverterBuildCounter(client, builds);
	}

	@Bean
	CodecAllocationCapability safeDefaultsFeignCodecAllocationCapability(
			@Value("${spring.cloud.openfeign.client.name}") String client, FeignConverterBuilds builds) {
		return new CodecAllocationCapability(client, builds);
	}

}
