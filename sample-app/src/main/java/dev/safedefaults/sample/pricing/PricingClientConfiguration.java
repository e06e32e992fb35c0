package dev.safedefaults.sample.pricing;

import java.util.List;

import feign.codec.Decoder;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.cloud.openfeign.support.ResponseEntityDecoder;
import org.springframework.cloud.openfeign.support.SpringDecoder;
import feign.optionals.OptionalDecoder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Profile;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;

/**
 * The pricing client's own configuration (not component-scanned: OpenFeign applies it to
 * this client only). By default it defines nothing, so upstream's codec applies.
 */
class PricingClientConfiguration {

	/**
	 * Incident 1 in Boot 4's shape: a converters provider whose {@code getObject()}
	 * builds new converters, all defaults included, on every decode.
	 */
	@Bean
	@Profile("naive")
	Decoder perCallConvertersDecoder(ObjectProvider<ClientHttpMessageConvertersCustomizer> customizers,
			ObjectProvider<HttpMessageConverterCustomizer> cloudCustomizers) {
		ObjectProvider<FeignHttpMessageConverters> perCall = new ObjectProvider<>() {
			@Override
			public FeignHttpMessageConverters getObject() {
				return new FeignHttpMessageConverters(customizers, cloudCustomizers);
			}
		};
		return new OptionalDecoder(new ResponseEntityDecoder(new SpringDecoder(perCall)));
	}

	/**
	 * The best hand-written setup: one set of converters, built once, without the
	 * defaults.
	 */
	@Bean
	@Profile("tuned")
	Decoder singletonConvertersDecoder(JsonMapper jsonMapper) {
		List<HttpMessageConverter<?>> converters = List.of(new ByteArrayHttpMessageConverter(),
				new StringHttpMessageConverter(java.nio.charset.StandardCharsets.UTF_8),
				new JacksonJsonHttpMessageConverter(jsonMapper));
		FeignHttpMessageConverters fixed = new FeignHttpMessageConverters(null, null) {
			@Override
			public List<HttpMessageConverter<?>> getConverters() {
				return converters;
			}
		};
		ObjectProvider<FeignHttpMessageConverters> once = new ObjectProvider<>() {
			@Override
			public FeignHttpMessageConverters getObject() {
				return fixed;
			}
		};
		return new OptionalDecoder(new ResponseEntityDecoder(new SpringDecoder(once)));
	}

}
