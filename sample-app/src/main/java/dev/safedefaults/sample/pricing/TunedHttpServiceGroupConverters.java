package dev.safedefaults.sample.pricing;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer;

/**
 * The best hand-written setup for the HTTP service group (profile {@code tuned}), as
 * {@code PricingClientConfiguration} writes it for the Feign client: one set of
 * converters, built once, without the defaults (byte array, String in UTF-8, JSON on the
 * application's {@code JsonMapper}). The group's converter list is replaced as it is
 * built, whatever Boot's customizers registered, and logged once.
 */
@Component
@Profile("tuned")
class TunedHttpServiceGroupConverters implements RestClientHttpServiceGroupConfigurer {

	private static final Log logger = LogFactory.getLog(TunedHttpServiceGroupConverters.class);

	private final List<HttpMessageConverter<?>> converters;

	TunedHttpServiceGroupConverters(JsonMapper jsonMapper) {
		StringHttpMessageConverter string = new StringHttpMessageConverter(StandardCharsets.UTF_8);
		string.setWriteAcceptCharset(false);
		this.converters = List.of(new ByteArrayHttpMessageConverter(), string,
				new JacksonJsonHttpMessageConverter(jsonMapper));
	}

	@Override
	public void configureGroups(Groups<RestClient.Builder> groups) {
		groups.filterByName(PricingService.GROUP)
			.forEachClient((group, builder) -> builder
				.configureMessageConverters((converters) -> converters.configureMessageConvertersList((list) -> {
					list.clear();
					list.addAll(this.converters);
					logger.info("HTTP service group '" + group.name() + "': hand-written converters "
							+ list.stream().map((converter) -> converter.getClass().getSimpleName()).toList());
				})));
	}

}
