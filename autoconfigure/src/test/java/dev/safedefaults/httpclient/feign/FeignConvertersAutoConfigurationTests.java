package dev.safedefaults.httpclient.feign;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.feign.LoopbackServer.Greeting;
import dev.safedefaults.httpclient.feign.TestClients.Builds;
import dev.safedefaults.httpclient.feign.TestClients.GreetingClient;
import dev.safedefaults.httpclient.feign.TestClients.OtherClient;
import dev.safedefaults.httpclient.feign.TestClients.OwnConvertersClient;
import dev.safedefaults.httpclient.feign.TestClients.Shout;
import dev.safedefaults.httpclient.feign.TestClients.ShoutConverter;
import dev.safedefaults.httpclient.feign.TestClients.ShoutingClient;
import feign.codec.Decoder;
import feign.codec.Encoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.cloud.openfeign.FeignClientSpecification;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.ResourceHttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.converter.xml.Jaxb2RootElementHttpMessageConverter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Feign clients calling a real server on loopback, with the starter's converters. Covers
 * {@code FeignProperties} (switched off, every client builds OpenFeign's own converters
 * again) and {@code OpenFeignClientsStatus} (the status lists each client on the shared
 * converters or on its own built once, and says when the feature is off).
 */
class FeignConvertersAutoConfigurationTests {

	private static LoopbackServer server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class,
						FeignConvertersAutoConfiguration.class, JacksonAutoConfiguration.class,
						HttpMessageConvertersAutoConfiguration.class, FeignAutoConfiguration.class))
		.withPropertyValues("test.server.url=" + server.url());

	@BeforeAll
	static void startServer() {
		server = LoopbackServer.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void twoClientsShareOneConvertersInstance() {
		this.runner.withUserConfiguration(TwoClients.class).run((context) -> {
			FeignHttpMessageConverters greetings = converters(context, "greetings");
			assertThat(greetings).isInstanceOf(FrozenFeignHttpMessageConverters.class)
				.isSameAs(converters(context, "others"))
				.isSameAs(context.getBean(SharedFeignConverters.class).shared());
		});
	}

	@Test
	void convertersAreBuiltOnceAndNotRebuiltAcrossCalls() {
		this.runner.withUserConfiguration(TwoClients.class, CountingCustomizer.class).run((context) -> {
			List<HttpMessageConverter<?>> before = converters(context, "greetings").getConverters();
			for (int i = 0; i < 3; i++) {
				assertThat(context.getBean(GreetingClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
				assertThat(context.getBean(OtherClient.class).greeting("Bob").firstName()).isEqualTo("Hello Bob");
			}
			assertThat(context.getBean(Builds.class).application).hasValue(1);
			assertThat(converters(context, "greetings").getConverters()).isSameAs(before);
		});
	}

	@Test
	void sharedConvertersHoldByteArrayStringUtf8AndJsonOnly() {
		this.runner.withUserConfiguration(TwoClients.class).run((context) -> {
			List<HttpMessageConverter<?>> converters = converters(context, "greetings").getConverters();
			assertThat(converters).map(Object::getClass)
				.containsExactly(ByteArrayHttpMessageConverter.class, StringHttpMessageConverter.class,
						JacksonJsonHttpMessageConverter.class);
			assertThat(((StringHttpMessageConverter) converters.get(1)).getDefaultCharset())
				.isEqualTo(StandardCharsets.UTF_8);
			assertThatListIsFrozen(converters);
		});
	}

	@Test
	void jsonGoesThroughTheApplicationsJsonMapper() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues("spring.jackson.property-naming-strategy=SNAKE_CASE")
			.run((context) -> {
				GreetingClient client = context.getBean(GreetingClient.class);
				assertThat(client.snake().firstName()).isEqualTo("Ada");
				assertThat(client.echo(new Greeting("Ada"))).isEqualTo("{\"first_name\":\"Ada\"}");
			});
	}

	@Test
	void optionalAndResponseEntityReturnsStillWork() {
		this.runner.withUserConfiguration(TwoClients.class).run((context) -> {
			GreetingClient client = context.getBean(GreetingClient.class);
			assertThat(client.optionalGreeting("Ada")).contains(new Greeting("Hello Ada"));
			assertThat(client.nothing()).isEmpty();
			ResponseEntity<Greeting> entity = client.greetingEntity("Ada");
			assertThat(entity.getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(entity.getBody()).isEqualTo(new Greeting("Hello Ada"));
		});
	}

	@Test
	void formEncodingStillWorks() {
		this.runner.withUserConfiguration(TwoClients.class)
			.run((context) -> assertThat(context.getBean(GreetingClient.class).form(Map.of("firstName", "Ada")))
				.isEqualTo("form:Ada"));
	}

	@Test
	void aClientWithItsOwnCustomizersGetsItsOwnInstanceBuiltOnce() {
		this.runner.withUserConfiguration(WithShoutingClient.class).run((context) -> {
			FeignHttpMessageConverters shouting = converters(context, "shouting");
			assertThat(shouting).isInstanceOf(FrozenFeignHttpMessageConverters.class)
				.isNotSameAs(converters(context, "greetings"));
			assertThat(((FrozenFeignHttpMessageConverters) shouting).isShared()).isFalse();
			assertThat(shouting.getConverters()).noneMatch(ResourceHttpMessageConverter.class::isInstance);
			for (int i = 0; i < 3; i++) {
				assertThat(context.getBean(ShoutingClient.class).shout()).isEqualTo(new Shout("HELLO"));
				assertThat(context.getBean(ShoutingClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
			}
			assertThat(converters(context, "shouting")).isSameAs(shouting);
			assertThat(context.getBean(Builds.class).shouting).hasValue(1);
			assertThat(converters(context, "greetings").getConverters()).noneMatch(ShoutConverter.class::isInstance);
		});
	}

	@Test
	void aClientsOwnConvertersBeanWins() {
		this.runner.withUserConfiguration(WithOwnConvertersClient.class).run((context) -> {
			FeignHttpMessageConverters own = converters(context, "own-converters");
			assertThat(own).isNotInstanceOf(FrozenFeignHttpMessageConverters.class);
			assertThat(context.getBean(OwnConvertersClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
			assertThat(converters(context, "greetings")).isInstanceOf(FrozenFeignHttpMessageConverters.class);
		});
	}

	@Test
	void anApplicationConvertersBeanWinsForEveryClient() {
		this.runner.withUserConfiguration(TwoClients.class, ApplicationConvertersBean.class).run((context) -> {
			assertThat(context).doesNotHaveBean(SharedFeignConverters.class);
			assertThat(converters(context, "greetings")).isSameAs(context.getBean("applicationConverters"));
			assertThat(context.getBean(GreetingClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
		});
	}

	@Test
	void anApplicationConverterBeanIsAddedWithoutTheDefaults() {
		this.runner.withUserConfiguration(TwoClients.class, XmlConverterBean.class).run((context) -> {
			assertThat(context.getBean(GreetingClient.class).note().text()).isEqualTo("from xml");
			assertThat(converters(context, "greetings").getConverters())
				.hasAtLeastOneElementOfType(Jaxb2RootElementHttpMessageConverter.class)
				.noneMatch(ResourceHttpMessageConverter.class::isInstance);
		});
	}

	@Test
	void anApplicationFeignCustomizerAddsAConverter() {
		this.runner.withUserConfiguration(TwoClients.class, XmlFeignCustomizer.class).run((context) -> {
			assertThat(context.getBean(GreetingClient.class).note().text()).isEqualTo("from xml");
			assertThat(converters(context, "greetings")).isSameAs(converters(context, "others"));
		});
	}

	@Test
	void applicationClientCustomizersApplyButCannotBringBackTheDefaults() {
		this.runner.withUserConfiguration(TwoClients.class, DefaultsRegisteringClientCustomizer.class)
			.run((context) -> {
				assertThat(context.getBeansOfType(ClientHttpMessageConvertersCustomizer.class)).hasSizeGreaterThan(1);
				assertThat(converters(context, "greetings").getConverters())
					.hasAtLeastOneElementOfType(ShoutConverter.class)
					.noneMatch(ResourceHttpMessageConverter.class::isInstance);
			});
	}

	@Test
	void publishesNoCodecAndNoConvertersCustomizer() {
		this.runner.withUserConfiguration(TwoClients.class).run((context) -> {
			assertThat(context).doesNotHaveBean(Encoder.class)
				.doesNotHaveBean(Decoder.class)
				.doesNotHaveBean(FeignHttpMessageConverters.class)
				.doesNotHaveBean(HttpMessageConverterCustomizer.class);
			assertThat(context.getBeansOfType(ClientHttpMessageConvertersCustomizer.class).keySet())
				.noneMatch((name) -> name.startsWith("safeDefaults"));
		});
	}

	@Test
	void optOutRestoresOpenFeignsConverters() {
		this.runner.withUserConfiguration(TwoClients.class, CountingCustomizer.class)
			.withPropertyValues("safe-defaults.feign.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(SharedFeignConverters.class);
				assertThat(context.getBeansOfType(FeignClientSpecification.class).values())
					.extracting(FeignClientSpecification::getName)
					.doesNotContain("default." + ClientConvertersConfiguration.class.getName());
				assertThat(context.getBean(GreetingClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
				assertThat(context.getBean(OtherClient.class).greeting("Bob").firstName()).isEqualTo("Hello Bob");
				FeignHttpMessageConverters greetings = converters(context, "greetings");
				assertThat(greetings).isNotInstanceOf(FrozenFeignHttpMessageConverters.class)
					.isNotSameAs(converters(context, "others"));
				assertThat(greetings.getConverters()).hasAtLeastOneElementOfType(ResourceHttpMessageConverter.class);
				assertThat(context.getBean(Builds.class).application).hasValue(2);
			});
	}

	@Test
	void statusListsTheClientsOnTheConvertersBuiltOnce() {
		this.runner.withUserConfiguration(WithShoutingClient.class).run((context) -> {
			context.getBean(GreetingClient.class).greeting("Ada");
			FeatureStatus status = context.getBean(FeatureStatusReporter.class).status();
			assertThat(status.feature()).isEqualTo("feign");
			assertThat(status.enabled()).isTrue();
			assertThat(status.appliedTo()).contains("greetings (shared converters)", "others (shared converters)",
					"shouting (its own converters, built once with its customizers)");
		});
	}

	@Test
	void statusSaysWhenTheFeatureIsOff() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues("safe-defaults.feign.enabled=false")
			.run((context) -> {
				FeatureStatus status = context.getBean(FeatureStatusReporter.class).status();
				assertThat(status.enabled()).isFalse();
				assertThat(status.reason()).contains("safe-defaults.feign.enabled=false");
			});
	}

	@Test
	void masterSwitchOffRemovesEverything() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues("safe-defaults.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(SharedFeignConverters.class)
					.doesNotHaveBean(FeatureStatusReporter.class);
				assertThat(converters(context, "greetings")).isNotInstanceOf(FrozenFeignHttpMessageConverters.class);
			});
	}

	static FeignHttpMessageConverters converters(AssertableApplicationContext context, String client) {
		return context.getBean(FeignClientFactory.class).getInstance(client, FeignHttpMessageConverters.class);
	}

	private static void assertThatListIsFrozen(List<HttpMessageConverter<?>> converters) {
		try {
			converters.add(new ByteArrayHttpMessageConverter());
		}
		catch (UnsupportedOperationException ex) {
			return;
		}
		throw new AssertionError("The converters list can be modified");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { GreetingClient.class, OtherClient.class })
	@Import(BuildsConfiguration.class)
	static class TwoClients {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { GreetingClient.class, OtherClient.class, ShoutingClient.class })
	@Import(BuildsConfiguration.class)
	static class WithShoutingClient {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { GreetingClient.class, OtherClient.class, OwnConvertersClient.class })
	@Import(BuildsConfiguration.class)
	static class WithOwnConvertersClient {

	}

	@Configuration(proxyBeanMethods = false)
	static class BuildsConfiguration {

		@Bean
		Builds builds() {
			return new Builds();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CountingCustomizer {

		@Bean
		HttpMessageConverterCustomizer countingCustomizer(Builds builds) {
			return (converters) -> builds.application.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ApplicationConvertersBean {

		@Bean
		FeignHttpMessageConverters applicationConverters() {
			return new FrozenFeignHttpMessageConverters(
					List.of(new JacksonJsonHttpMessageConverter(), new StringHttpMessageConverter()), false, false);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class XmlConverterBean {

		@Bean
		HttpMessageConverter<Object> xmlConverter() {
			return new Jaxb2RootElementHttpMessageConverter();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class XmlFeignCustomizer {

		@Bean
		HttpMessageConverterCustomizer xmlCustomizer() {
			return (converters) -> converters.add(new Jaxb2RootElementHttpMessageConverter());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DefaultsRegisteringClientCustomizer {

		@Bean
		ClientHttpMessageConvertersCustomizer shoutingClientCustomizer() {
			return (builder) -> builder.registerDefaults().addCustomConverter(new ShoutConverter());
		}

	}

}
