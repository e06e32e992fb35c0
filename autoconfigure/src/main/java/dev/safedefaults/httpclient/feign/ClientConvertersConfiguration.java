package dev.safedefaults.httpclient.feign;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Fallback;

/**
 * Registered in every Feign client's own context (through a {@code default.}-prefixed
 * {@link FeignClientSpecification}), before OpenFeign's
 * {@code FeignClientsConfiguration}: its converters bean makes OpenFeign's
 * {@code @ConditionalOnMissingBean} skip the per-client default set. OpenFeign's encoder
 * and decoder stay as they are (Optional, ResponseEntity, Pageable and form support),
 * they only get these converters.
 * <p>
 * A client's own converters bean wins: declared in its {@code configuration=} class, it
 * is registered first and this one is skipped; declared in a default configuration (whose
 * registration order is not defined), it wins because this one is a {@link Fallback}.
 */
@Configuration(proxyBeanMethods = false)
class ClientConvertersConfiguration {

	@Bean
	@Fallback
	@ConditionalOnMissingBean(FeignHttpMessageConverters.class)
	FeignHttpMessageConverters safeDefaultsFeignHttpMessageConverters(SharedFeignConverters converters,
			ObjectProvider<ClientHttpMessageConvertersCustomizer> clientCustomizers,
			ObjectProvider<HttpMessageConverterCustomizer> feignCustomizers) {
		return converters.forClient(clientCustomizers.orderedStream().toList(),
				feignCustomizers.orderedStream().toList());
	}

}
