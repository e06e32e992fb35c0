package dev.safedefaults.httpclient.feign;

import java.util.List;

import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.http.converter.HttpMessageConverter;

/**
 * Counts, for one client, every time a {@link FeignHttpMessageConverters} of its context
 * builds its converters: OpenFeign runs every {@link HttpMessageConverterCustomizer} bean
 * the converters object was given on each build. It changes nothing in the list, and the
 * starter's own converters never run it (they are built once, before any client exists).
 */
final class ConverterBuildCounter implements HttpMessageConverterCustomizer {

	private final String client;

	private final FeignConverterBuilds builds;

	ConverterBuildCounter(String client, FeignConverterBuilds builds) {
		this.client = client;
		this.builds = builds;
	}

	@Override
	public void accept(List<HttpMessageConverter<?>> converters) {
		this.builds.convertersBuilt(this.client);
	}

}
