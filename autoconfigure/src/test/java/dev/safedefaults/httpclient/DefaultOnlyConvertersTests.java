package dev.safedefaults.httpclient;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.ResourceHttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DefaultOnlyConverters} names Framework's default converters by class: this fails
 * when a Framework version adds a default converter the list does not know, so that the
 * checks that name the defaults (feign and restclient {@code default-converters}) keep
 * naming them all.
 */
class DefaultOnlyConvertersTests {

	@Test
	void everyConverterFrameworksDefaultsAddBeyondBytesTextJsonAndFormsIsKnown() {
		List<HttpMessageConverter<?>> defaults = new ArrayList<>();
		HttpMessageConverters.forClient().registerDefaults().build().forEach(defaults::add);
		assertThat(defaults).anyMatch(ResourceHttpMessageConverter.class::isInstance);
		assertThat(defaults)
			.filteredOn((converter) -> !(converter instanceof ByteArrayHttpMessageConverter
					|| converter instanceof StringHttpMessageConverter || converter instanceof FormHttpMessageConverter
					|| SharedClientConverters.isJson(converter)))
			.isNotEmpty()
			.allSatisfy((converter) -> assertThat(DefaultOnlyConverters.isDefaultOnly(converter))
				.as("%s is a default Framework adds", converter.getClass().getName())
				.isTrue());
	}

	@Test
	void whatTheSharedSetHoldsIsNotADefault() {
		assertThat(DefaultOnlyConverters.isDefaultOnly(new JacksonJsonHttpMessageConverter())).isFalse();
		assertThat(DefaultOnlyConverters.isDefaultOnly(new StringHttpMessageConverter())).isFalse();
		assertThat(DefaultOnlyConverters.isDefaultOnly(new ByteArrayHttpMessageConverter())).isFalse();
	}

}
