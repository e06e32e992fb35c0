package dev.safedefaults.httpclient.restclient;

import java.io.IOException;
import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.SharedClientConverters;
import dev.safedefaults.httpclient.feign.FeignConvertersAutoConfiguration;
import dev.safedefaults.httpclient.restclient.JsonLoopback.Greeting;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.ResourceHttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.support.RestClientHttpServiceGroupConfigurer;
import org.springframework.web.service.annotation.GetExchange;
import org.springframework.web.service.registry.ImportHttpServices;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code RestClient} from Boot's builder and every HTTP service group gets the one
 * converters set built at startup (the same instances the Feign clients get), with and
 * without Feign and the client libraries; the group checks. Covers
 * {@code BootsConvertersCustomizerStandIn} (Boot's customizer replaced, and applied again
 * when the shared set is incomplete), {@code RestClientFeatureStatus},
 * {@code RestClientConvertersCheck} and {@code RestClientFindings}, and the shared set's
 * {@code SharedConvertersOutcome} with {@code HttpClientFindings} (the incomplete set's
 * warning), and {@code RestClientProperties} (switched off, Boot's converters come back
 * and an info says so).
 */
class RestClientConvertersAutoConfigurationTests {

	private static JsonLoopback server;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class,
						RestClientConvertersAutoConfiguration.class, JacksonAutoConfiguration.class,
						HttpMessageConvertersAutoConfiguration.class, RestClientAutoConfiguration.class,
						HttpServiceClientPropertiesAutoConfiguration.class, HttpServiceClientAutoConfiguration.class))
		.withPropertyValues("spring.http.serviceclient.greetings.base-url=" + server.url(),
				"spring.http.serviceclient.bare.base-url=" + server.url());

	@BeforeAll
	static void startServer() throws IOException {
		server = new JsonLoopback();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void everyClientFromBootsBuilderGetsTheSharedInstancesAndNoDefaults() {
		this.runner.run((context) -> {
			List<HttpMessageConverter<?>> shared = context.getBean(SharedClientConverters.class).converters();
			RestClient first = context.getBean(RestClient.Builder.class).baseUrl(server.url()).build();
			RestClient second = context.getBean(RestClient.Builder.class).baseUrl(server.url()).build();
			for (RestClient client : List.of(first, second)) {
				List<HttpMessageConverter<?>> converters = converters(client);
				assertThat(shared)
					.allSatisfy((one) -> assertThat(converters).anySatisfy((c) -> assertThat(c).isSameAs(one)));
				assertThat(converters).noneMatch(ResourceHttpMessageConverter.class::isInstance);
				assertThat(converters).filteredOn(JacksonJsonHttpMessageConverter.class::isInstance)
					.singleElement()
					.satisfies((json) -> assertThat(((JacksonJsonHttpMessageConverter) json).getMapper())
						.isSameAs(context.getBean(JsonMapper.class)));
			}
			assertThat(first.get().uri("/greetings/Ada").retrieve().body(Greeting.class))
				.isEqualTo(new Greeting("Hello Ada"));
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
		});
	}

	@Test
	void anHttpServiceGroupGetsTheSharedSetAndTheStatusNamesIt() {
		this.runner.withUserConfiguration(GreetingsGroup.class).run((context) -> {
			assertThat(context.getBean(GreetingService.class).greeting("Ada")).isEqualTo(new Greeting("Hello Ada"));
			FeatureStatus status = status(context);
			assertThat(status.enabled()).isTrue();
			assertThat(status.appliedTo()).contains("HTTP service group 'greetings'");
			assertThat(status.shortForm()).isEqualTo("restclient(builder, 1 group)");
			assertThat(context.getBean(RestClientBuilds.class).groups()).singleElement().satisfies((group) -> {
				assertThat(group.shared()).isTrue();
				assertThat(group.json()).isTrue();
				assertThat(group.defaults()).isEmpty();
			});
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
		});
	}

	@Test
	void aConverterTheApplicationSetsOnTheBuilderStillWins() {
		this.runner.run((context) -> {
			JacksonJsonHttpMessageConverter own = new JacksonJsonHttpMessageConverter();
			RestClient client = context.getBean(RestClient.Builder.class)
				.configureMessageConverters((converters) -> converters.withJsonConverter(own))
				.build();
			assertThat(converters(client)).filteredOn(JacksonJsonHttpMessageConverter.class::isInstance)
				.singleElement()
				.isSameAs(own);
		});
	}

	@Test
	void feignClientsAndRestClientsShareOneConvertersObject() {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(FeignConvertersAutoConfiguration.class, FeignAutoConfiguration.class))
			.withUserConfiguration(WithFeignClient.class)
			.withPropertyValues("test.server.url=" + server.url())
			.run((context) -> {
				FeignHttpMessageConverters feign = context.getBean(FeignClientFactory.class)
					.getInstance("feigngreetings", FeignHttpMessageConverters.class);
				List<HttpMessageConverter<?>> shared = context.getBean(SharedClientConverters.class).converters();
				assertThat(feign.getConverters()).isSameAs(shared);
				assertThat(converters(context.getBean(RestClient.Builder.class).build())).containsAll(shared);
				assertThat(context.getBean(FeignGreetingClient.class).greeting("Ada"))
					.isEqualTo(new Greeting("Hello Ada"));
			});
	}

	/**
	 * Issue 42's guard: a shared set that lost its JSON converter (as on Framework 7.0.5,
	 * here through a customizer that drops it only when the defaults are off) is not
	 * used. Every client kind keeps working JSON, a warning names what was missing, and
	 * the status lines say why.
	 */
	@Test
	void anIncompleteSharedSetIsNotUsedAndAWarningNamesWhatItLacked() {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(FeignConvertersAutoConfiguration.class, FeignAutoConfiguration.class))
			.withUserConfiguration(WithFeignClient.class, GreetingsGroup.class, JsonLostWithoutDefaults.class)
			.withPropertyValues("test.server.url=" + server.url())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RestClient client = context.getBean(RestClient.Builder.class).baseUrl(server.url()).build();
				assertThat(client.get().uri("/greetings/Ada").retrieve().body(Greeting.class))
					.isEqualTo(new Greeting("Hello Ada"));
				assertThat(context.getBean(FeignGreetingClient.class).greeting("Ada"))
					.isEqualTo(new Greeting("Hello Ada"));
				assertThat(context.getBean(GreetingService.class).greeting("Ada")).isEqualTo(new Greeting("Hello Ada"));
				assertThat(findings(context, "httpclient.shared-converters-incomplete")).singleElement()
					.satisfies((finding) -> {
						assertThat(finding.severity()).isEqualTo(Severity.WARNING);
						assertThat(finding.message()).contains("JSON objects (application/json)");
					});
				FeatureStatus status = status(context);
				assertThat(status.enabled()).isFalse();
				assertThat(status.reason()).contains("lacked JSON objects (application/json)");
				assertThat(context.getBean(SharedClientConverters.class).isComplete()).isFalse();
			});
	}

	@Test
	void withoutFeignTheRestClientsStillGetTheSharedSet() {
		this.runner.withClassLoader(new FilteredClassLoader("feign.", "org.springframework.cloud.openfeign."))
			.withUserConfiguration(GreetingsGroup.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RestClientBuilds.class).groups()).singleElement()
					.satisfies((group) -> assertThat(group.shared()).isTrue());
				assertThat(context.getBean(GreetingService.class).greeting("Ada")).isEqualTo(new Greeting("Hello Ada"));
			});
	}

	@Test
	void withoutTheRestClientLibraryTheStatusSaysSoAndNothingElseIsThere() {
		// Without the library, Boot's own RestClient auto-configurations are not there
		// either.
		onlyTheStarter().withClassLoader(new FilteredClassLoader("org.springframework.boot.restclient."))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(RestClientBuilds.class)
					.doesNotHaveBean(SharedConvertersRestClientCustomizer.class);
				FeatureStatus status = status(context);
				assertThat(status.enabled()).isFalse();
				assertThat(status.reason()).startsWith("library absent: spring-boot-restclient");
			});
	}

	@Test
	void withoutTheConvertersLibraryTheFeatureStandsAside() {
		onlyTheStarter().withClassLoader(new FilteredClassLoader("org.springframework.boot.http.converter."))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(SharedClientConverters.class)
					.doesNotHaveBean(RestClientBuilds.class);
				assertThat(status(context).enabled()).isFalse();
			});
	}

	@Test
	void switchedOffBootsConvertersComeBackAndAnInfoSaysSo() {
		this.runner.withUserConfiguration(GreetingsGroup.class)
			.withPropertyValues("safe-defaults.restclient.enabled=false")
			.run((context) -> {
				assertThat(converters(context.getBean(RestClient.Builder.class).build()))
					.anyMatch(ResourceHttpMessageConverter.class::isInstance);
				assertThat(findings(context, "restclient.default-converters")).singleElement().satisfies((finding) -> {
					assertThat(finding.severity()).isEqualTo(Severity.INFO);
					assertThat(finding.subject()).isEqualTo("Boot's RestClient.Builder");
					assertThat(finding.message()).contains("safe-defaults.restclient.enabled=false");
				});
				assertThat(status(context).enabled()).isFalse();
				assertThat(context.getBean(GreetingService.class).greeting("Ada")).isEqualTo(new Greeting("Hello Ada"));
			});
	}

	@Test
	void theUpstreamTrapLosesJsonOnARawBuilderAndTheSharedSetKeepsItOnBootsBuilder() {
		// spring-framework #36747: a converters configurer switches the defaults off.
		RestClient raw = RestClient.builder()
			.configureMessageConverters((converters) -> converters.addCustomConverter(new StringHttpMessageConverter()))
			.build();
		assertThat(converters(raw)).noneMatch(SharedClientConverters::isJson);
		this.runner.run((context) -> {
			RestClient fromBoot = context.getBean(RestClient.Builder.class)
				.configureMessageConverters(
						(converters) -> converters.addCustomConverter(new StringHttpMessageConverter()))
				.build();
			assertThat(converters(fromBoot)).anyMatch(SharedClientConverters::isJson);
		});
	}

	@Test
	void aGroupLeftWithoutJsonWhileItExchangesObjectsIsReportedByName() {
		this.runner.withUserConfiguration(GreetingsGroup.class, BareGroup.class).run((context) -> {
			assertThat(findings(context, "restclient.json-converter-lost")).singleElement().satisfies((finding) -> {
				assertThat(finding.severity()).isEqualTo(Severity.WARNING);
				assertThat(finding.subject()).isEqualTo("HTTP service group 'bare'");
			});
			assertThat(status(context).reason()).contains("bare");
		});
	}

	@Test
	void anInterfaceExchangingOnlyStringsNeedsNoJson() {
		assertThat(HttpServiceGroupsRecorder.exchangesObjects(List.of(GreetingService.class))).isTrue();
		assertThat(HttpServiceGroupsRecorder.exchangesObjects(List.of(PlainService.class))).isFalse();
	}

	private static ApplicationContextRunner onlyTheStarter() {
		return new ApplicationContextRunner().withConfiguration(
				AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class,
						RestClientConvertersAutoConfiguration.class, JacksonAutoConfiguration.class));
	}

	@SuppressWarnings("unchecked")
	static List<HttpMessageConverter<?>> converters(RestClient client) {
		return (List<HttpMessageConverter<?>>) ReflectionTestUtils.getField(client, "messageConverters");
	}

	private static FeatureStatus status(AssertableApplicationContext context) {
		return context.getBeansOfType(FeatureStatusReporter.class)
			.values()
			.stream()
			.map(FeatureStatusReporter::status)
			.filter((status) -> status.feature().equals("restclient"))
			.findFirst()
			.orElseThrow();
	}

	private static List<Finding> findings(AssertableApplicationContext context, String id) {
		return context.getBean(FindingsStore.class).findings().stream().filter((f) -> f.id().equals(id)).toList();
	}

	interface GreetingService {

		@GetExchange("/greetings/{name}")
		Greeting greeting(@PathVariable String name);

	}

	interface PlainService {

		@GetExchange("/greetings/{name}")
		String greeting(@PathVariable String name);

	}

	interface BareService {

		@GetExchange("/greetings/{name}")
		Greeting greeting(@PathVariable String name);

	}

	@Configuration(proxyBeanMethods = false)
	@ImportHttpServices(group = "greetings", types = GreetingService.class)
	static class GreetingsGroup {

	}

	/**
	 * A group whose own configurer keeps only a String converter, with the upstream API,
	 * while its interface reads objects.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportHttpServices(group = "bare", types = BareService.class)
	static class BareGroup {

		@Bean
		RestClientHttpServiceGroupConfigurer onlyStrings() {
			return (groups) -> groups.filterByName("bare")
				.forEachClient((group, builder) -> builder
					.configureMessageConverters((converters) -> converters.configureMessageConvertersList((list) -> {
						list.clear();
						list.add(new StringHttpMessageConverter());
					})));
		}

	}

	/**
	 * Drops the JSON converter from a client's converters when Framework's defaults are
	 * off (no resource converter): a stand-in for a Framework that loses what was
	 * configured on a builder without defaults.
	 */
	@Configuration(proxyBeanMethods = false)
	static class JsonLostWithoutDefaults {

		@Bean
		ClientHttpMessageConvertersCustomizer jsonLostWithoutDefaults() {
			return (builder) -> builder.configureMessageConvertersList((list) -> {
				if (list.stream().noneMatch(ResourceHttpMessageConverter.class::isInstance)) {
					list.removeIf(SharedClientConverters::isJson);
				}
			});
		}

	}

	@FeignClient(name = "feigngreetings", url = "${test.server.url}")
	interface FeignGreetingClient {

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name);

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = FeignGreetingClient.class)
	static class WithFeignClient {

	}

}
