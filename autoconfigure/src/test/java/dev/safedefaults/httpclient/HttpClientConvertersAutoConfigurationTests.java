package dev.safedefaults.httpclient;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one converters set every HTTP client kind shares (incident 1): what is in it, that
 * it is built once and only when a client asks, and that every converter Framework's
 * default list brings is either in it or known as one it leaves out (what the Feign and
 * RestClient checks look for).
 */
class HttpClientConvertersAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class,
					JacksonAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class));

	@Test
	void theSetHoldsByteArrayStringInUtf8AndJsonThroughTheApplicationsJsonMapperAndNothingElse() {
		this.runner.run((context) -> {
			List<HttpMessageConverter<?>> converters = context.getBean(SharedClientConverters.class).converters();
			assertThat(converters).hasSize(3);
			assertThat(converters).filteredOn(ByteArrayHttpMessageConverter.class::isInstance).hasSize(1);
			assertThat(converters).filteredOn(StringHttpMessageConverter.class::isInstance)
				.singleElement()
				.satisfies((string) -> assertThat(((StringHttpMessageConverter) string).getDefaultCharset())
					.isEqualTo(StandardCharsets.UTF_8));
			assertThat(converters).filteredOn(JacksonJsonHttpMessageConverter.class::isInstance)
				.singleElement()
				.satisfies((json) -> assertThat(((JacksonJsonHttpMessageConverter) json).getMapper())
					.isSameAs(context.getBean(JsonMapper.class)));
			assertThat(converters).noneMatch(DefaultOnlyConverters::isDefaultOnly);
		});
	}

	@Test
	void anApplicationsConverterBeanJoinsTheSet() {
		this.runner.withBean(ShoutConverter.class, ShoutConverter::new)
			.run((context) -> assertThat(context.getBean(SharedClientConverters.class).converters())
				.contains(context.getBean(ShoutConverter.class)));
	}

	@Test
	void anApplicationsCustomizerRunsOnceAndItsConverterIsKept() {
		List<String> runs = new ArrayList<>();
		ShoutConverter shout = new ShoutConverter();
		this.runner.withBean(ClientHttpMessageConvertersCustomizer.class, () -> (builder) -> {
			runs.add("customized");
			builder.addCustomConverter(shout);
		}).run((context) -> {
			SharedClientConverters shared = context.getBean(SharedClientConverters.class);
			assertThat(shared.converters()).contains(shout);
			assertThat(context.getBean(SharedClientConverters.class).converters()).isSameAs(shared.converters());
			assertThat(runs).containsExactly("customized");
		});
	}

	@Test
	void isBuiltOnlyWhenAClientAsksForIt() {
		this.runner.run((context) -> {
			assertThat(context.getBeanFactory().containsSingleton("safeDefaultsSharedClientConverters")).isFalse();
			context.getBean(SharedClientConverters.class);
			assertThat(context.getBeanFactory().containsSingleton("safeDefaultsSharedClientConverters")).isTrue();
		});
	}

	@Test
	void withoutBootsHttpConverterModuleThereIsNoSet() {
		this.runner.withClassLoader(new FilteredClassLoader(ClientHttpMessageConvertersCustomizer.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(SharedClientConverters.class));
	}

	@Test
	void theMasterSwitchRemovesTheSet() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(SharedClientConverters.class));
	}

	@Test
	void everyConverterOfFrameworksDefaultListIsInTheSharedSetsKindsOrKnownAsDefaultOnly() {
		// When a Framework version adds a default converter, the checks that look for the
		// defaults must learn it: this fails first.
		List<HttpMessageConverter<?>> defaults = new ArrayList<>();
		HttpMessageConverters.forClient().registerDefaults().build().forEach(defaults::add);
		assertThat(defaults).anyMatch(DefaultOnlyConverters::isDefaultOnly);
		assertThat(defaults).allSatisfy((converter) -> assertThat(DefaultOnlyConverters.isDefaultOnly(converter)
				|| converter instanceof ByteArrayHttpMessageConverter || converter instanceof StringHttpMessageConverter
				|| converter instanceof FormHttpMessageConverter || SharedClientConverters.isJson(converter))
			.as("%s is in the shared set's kinds or known as default-only", converter.getClass().getName())
			.isTrue());
	}

	static class ShoutConverter extends AbstractHttpMessageConverter<String> {

		@Override
		protected boolean supports(Class<?> type) {
			return false;
		}

		@Override
		protected String readInternal(Class<? extends String> type, HttpInputMessage input) {
			throw new UnsupportedOperationException();
		}

		@Override
		protected void writeInternal(String text, HttpOutputMessage output) {
			throw new UnsupportedOperationException();
		}

	}

}
