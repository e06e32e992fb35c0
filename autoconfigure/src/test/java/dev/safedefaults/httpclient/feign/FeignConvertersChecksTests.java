package dev.safedefaults.httpclient.feign;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.CheckFindings;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.feign.LoopbackServer.Greeting;
import dev.safedefaults.httpclient.feign.TestClients.GreetingClient;
import dev.safedefaults.httpclient.feign.TestClients.IncidentClient;
import dev.safedefaults.httpclient.feign.TestClients.OtherClient;
import dev.safedefaults.httpclient.feign.TestClients.OwnConvertersClient;
import dev.safedefaults.testsupport.OnEveryJdk;
import feign.FeignException;
import feign.Response;
import feign.codec.Decoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks {@code feign.per-call-converters} and {@code feign.default-converters}, on
 * clients whose server runs on loopback: the startup checks send no request and call no
 * codec; per-call converters are found from the calls the application makes once it is
 * ready. Covers {@code ConverterBuildCounter} (each build of a client's converters after
 * startup counted, none during it, the finding at the first report's count) and
 * {@code ClientObserversConfiguration}, which puts the observers in every client's
 * context, named after the client (the finding's subject).
 */
@OnEveryJdk
class FeignConvertersChecksTests {

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
	void theIncidentsCodecIsReportedWithTheClientsNameOnceCallsFlow() {
		this.runner.withUserConfiguration(WithIncidentClient.class).run((context) -> {
			ready(context);
			IncidentClient client = context.getBean(IncidentClient.class);
			for (int i = 1; i < FeignConverterBuilds.FIRST_REPORT; i++) {
				assertThat(client.greeting("Ada").firstName()).isEqualTo("Hello Ada");
			}
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).isEmpty();
			assertThat(client.greeting("Ada").firstName()).isEqualTo("Hello Ada");
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).singleElement()
				.satisfies((finding) -> {
					assertThat(finding.severity()).isEqualTo(Severity.WARNING);
					assertThat(finding.subject()).isEqualTo("feign client 'incident'");
					assertThat(finding.message()).contains("decoder SpringDecoder.decode")
						.contains("built " + FeignConverterBuilds.FIRST_REPORT + " times");
				});
		});
	}

	@Test
	void theChecksNeverCallTheApplicationsConvertersProvider() {
		TestClients.IncidentCodecConfiguration.getObjectCalls.set(0);
		this.runner.withUserConfiguration(WithIncidentClient.class).run((context) -> {
			assertThat(context).hasSingleBean(FeignClientContexts.class);
			assertThat(context.getBean(FeignClientFactory.class).getContextNames()).contains("incident");
			// The startup checks created the client's context and asked nothing of its
			// codec: the provider only runs when the application calls the client.
			assertThat(TestClients.IncidentCodecConfiguration.getObjectCalls).hasValue(0);
			ready(context);
			IncidentClient client = context.getBean(IncidentClient.class);
			for (int i = 0; i < 3; i++) {
				client.greeting("Ada");
			}
			assertThat(TestClients.IncidentCodecConfiguration.getObjectCalls).hasValue(3);
		});
	}

	@Test
	void theStartersConvertersAreNotReported() {
		this.runner.withUserConfiguration(TwoClients.class).run((context) -> {
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			assertThat(context.getBean(FeignClientFactory.class).getContextNames()).contains("greetings", "others");
			ready(context);
			callEveryWay(context, FeignConverterBuilds.FIRST_REPORT + 5);
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			assertThat(context.getBean(FeignConverterBuilds.class).builtAfterReady("greetings")).isZero();
		});
	}

	@Test
	void openFeignsOwnConvertersBuiltOnceAreNotReportedUnderTraffic() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues("safe-defaults.feign.enabled=false")
			.run((context) -> {
				ready(context);
				callEveryWay(context, FeignConverterBuilds.FIRST_REPORT + 5);
				assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).isEmpty();
				assertThat(context.getBean(FeignConverterBuilds.class).builtAfterReady("greetings"))
					.isLessThanOrEqualTo(1);
			});
	}

	@Test
	void callsDuringStartupAreNotCounted() {
		this.runner.withUserConfiguration(WithIncidentClient.class).run((context) -> {
			IncidentClient client = context.getBean(IncidentClient.class);
			for (int i = 0; i < FeignConverterBuilds.FIRST_REPORT + 5; i++) {
				client.greeting("Ada");
			}
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).isEmpty();
			assertThat(context.getBean(FeignConverterBuilds.class).builtAfterReady("incident")).isZero();
		});
	}

	@Test
	void aLazyClientWithoutAContextIsCheckedWithoutSendingARequest() {
		int requestsBefore = server.requests();
		this.runner.withUserConfiguration(WithIncidentClient.class)
			.withPropertyValues("spring.cloud.openfeign.lazy-attributes-resolution=true")
			.run((context) -> {
				assertThat(context.getBean(FeignClientFactory.class).getContextNames()).contains("incident");
				assertThat(server.requests()).isEqualTo(requestsBefore);
				ready(context);
				IncidentClient client = context.getBean(IncidentClient.class);
				for (int i = 0; i < FeignConverterBuilds.FIRST_REPORT; i++) {
					client.greeting("Ada");
				}
				assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).extracting(Finding::subject)
					.containsExactly("feign client 'incident'");
			});
	}

	@Test
	void aCodecConfiguredByPropertiesIsChecked() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues(
					"spring.cloud.openfeign.client.config.greetings.decoder=" + SupplierDecoder.class.getName())
			.run((context) -> {
				ready(context);
				callBoth(context, FeignConverterBuilds.MEASURED_CALLS);
				assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).singleElement()
					.satisfies((finding) -> {
						assertThat(finding.subject()).isEqualTo("feign client 'greetings'");
						assertThat(finding.message()).contains("decoder SupplierDecoder.converters");
					});
			});
	}

	@Test
	void aDefaultCodecConfiguredByPropertiesIsCheckedForEveryClient() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues(
					"spring.cloud.openfeign.client.config.default.decoder=" + SupplierDecoder.class.getName())
			.run((context) -> {
				ready(context);
				callBoth(context, FeignConverterBuilds.MEASURED_CALLS);
				assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).extracting(Finding::subject)
					.containsExactly("feign client 'greetings'", "feign client 'others'");
			});
	}

	@Test
	void anUnknownCodecWithAnObjectFactoryBuildingConvertersPerCallIsReported() {
		this.runner.withUserConfiguration(WithLegacyCodecClient.class).run((context) -> {
			ready(context);
			LegacyClient client = context.getBean(LegacyClient.class);
			for (int i = 0; i < FeignConverterBuilds.MEASURED_CALLS; i++) {
				assertThat(client.greeting("Ada").firstName()).isEqualTo("Hello Ada");
			}
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).singleElement()
				.satisfies((finding) -> {
					assertThat(finding.subject()).isEqualTo("feign client 'legacy'");
					assertThat(finding.message()).contains("LegacyDecoder.converters");
				});
		});
	}

	@Test
	void anUnknownCodecWhoseFactoryBuildsConvertersOnceIsNotReported() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues(
					"spring.cloud.openfeign.client.config.greetings.decoder=" + OnceSupplierDecoder.class.getName())
			.run((context) -> {
				ready(context);
				callBoth(context, FeignConverterBuilds.MEASURED_CALLS * 2);
				assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).isEmpty();
			});
	}

	@Test
	void aClientWhoseContextFailsIsReportedAndTheOthersAreStillChecked() {
		this.runner.withUserConfiguration(WithBrokenClient.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(findings(context, CheckFindings.CHECKS_FAILED.id())).extracting(Finding::subject)
				.containsExactly("feign client 'broken'");
			ready(context);
			IncidentClient client = context.getBean(IncidentClient.class);
			for (int i = 0; i < FeignConverterBuilds.FIRST_REPORT; i++) {
				client.greeting("Ada");
			}
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).extracting(Finding::subject)
				.containsExactly("feign client 'incident'");
		});
	}

	@Test
	void optOutReportsEveryClientsDefaultConverters() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues("safe-defaults.feign.enabled=false")
			.run((context) -> {
				assertThat(findings(context, FeignFindings.DEFAULT_CONVERTERS.id())).extracting(Finding::subject)
					.containsExactly("feign client 'greetings'", "feign client 'others'");
				assertThat(findings(context, FeignFindings.DEFAULT_CONVERTERS.id())).allSatisfy((finding) -> {
					assertThat(finding.severity()).isEqualTo(Severity.INFO);
					assertThat(finding.message()).contains("ResourceHttpMessageConverter");
				});
				assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).isEmpty();
			});
	}

	@Test
	void aClientsOwnConvertersBeanWithTheDefaultsIsReported() {
		this.runner.withUserConfiguration(WithOwnConvertersClient.class)
			.run((context) -> assertThat(findings(context, FeignFindings.DEFAULT_CONVERTERS.id()))
				.extracting(Finding::subject)
				.containsExactly("feign client 'own-converters'"));
	}

	@Test
	void findingsCanBeSilencedById() {
		this.runner.withUserConfiguration(WithIncidentClient.class)
			.withPropertyValues("safe-defaults.checks.disabled=feign.per-call-converters,feign.default-converters")
			.run((context) -> {
				ready(context);
				IncidentClient client = context.getBean(IncidentClient.class);
				for (int i = 0; i < FeignConverterBuilds.FIRST_REPORT; i++) {
					client.greeting("Ada");
				}
				assertThat(context.getBean(FeignConverterBuilds.class).builtAfterReady("incident"))
					.isEqualTo(FeignConverterBuilds.FIRST_REPORT);
				assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			});
	}

	/**
	 * What {@code SpringApplication} publishes once the application serves traffic (the
	 * runner does not).
	 */
	private static void ready(AssertableApplicationContext context) {
		ConfigurableApplicationContext application = context.getSourceApplicationContext();
		application.publishEvent(
				new ApplicationReadyEvent(new SpringApplication(), new String[0], application, Duration.ZERO));
	}

	private static void callBoth(AssertableApplicationContext context, long calls) {
		for (int i = 0; i < calls; i++) {
			assertThat(context.getBean(GreetingClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
			assertThat(context.getBean(OtherClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
		}
	}

	private static void callEveryWay(AssertableApplicationContext context, long calls) {
		GreetingClient client = context.getBean(GreetingClient.class);
		for (int i = 0; i < calls; i++) {
			assertThat(client.greeting("Ada").firstName()).isEqualTo("Hello Ada");
			assertThat(client.optionalGreeting("Ada")).isPresent();
			assertThat(client.greetingEntity("Ada").getBody()).isNotNull();
			assertThat(client.echo(new Greeting("Ada"))).contains("Ada");
			assertThat(context.getBean(OtherClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
		}
	}

	private static List<Finding> findings(AssertableApplicationContext context, String id) {
		return context.getBean(FindingsStore.class).findings().stream().filter((f) -> f.id().equals(id)).toList();
	}

	@FeignClient(name = "legacy", url = TestClients.URL, configuration = LegacyCodecConfiguration.class)
	interface LegacyClient {

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name);

	}

	@FeignClient(name = "broken", url = TestClients.URL, configuration = BrokenConfiguration.class)
	interface BrokenClient {

		@GetMapping("/greetings/{name}")
		String greeting(String name);

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { GreetingClient.class, OtherClient.class })
	static class TwoClients {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { GreetingClient.class, IncidentClient.class })
	static class WithIncidentClient {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { GreetingClient.class, LegacyClient.class })
	static class WithLegacyCodecClient {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { BrokenClient.class, IncidentClient.class })
	static class WithBrokenClient {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableFeignClients(clients = { GreetingClient.class, OwnConvertersClient.class })
	static class WithOwnConvertersClient {

	}

	/**
	 * The incident's own shape: Boot's (deprecated) HttpMessageConverters from a lambda.
	 */
	static class LegacyCodecConfiguration {

		@Bean
		@SuppressWarnings("removal")
		Decoder feignDecoder() {
			return new LegacyDecoder(
					() -> new org.springframework.boot.http.converter.autoconfigure.HttpMessageConverters(false,
							List.of(new JacksonJsonHttpMessageConverter())));
		}

	}

	static class BrokenConfiguration {

		@Bean
		Decoder feignDecoder() {
			throw new IllegalStateException("this client's configuration is broken");
		}

	}

	/**
	 * A codec safe-defaults does not know, holding an ObjectFactory that builds per call.
	 */
	@SuppressWarnings("removal")
	static final class LegacyDecoder implements Decoder {

		private final ObjectFactory<org.springframework.boot.http.converter.autoconfigure.HttpMessageConverters> converters;

		LegacyDecoder(
				ObjectFactory<org.springframework.boot.http.converter.autoconfigure.HttpMessageConverters> converters) {
			this.converters = converters;
		}

		@Override
		public Object decode(Response response, Type type) throws IOException, FeignException {
			return read(this.converters.getObject(), response, type);
		}

	}

	/** A codec configured by properties (so it has a public no-argument constructor). */
	public static final class SupplierDecoder implements Decoder {

		private final Supplier<HttpMessageConverters> converters = () -> HttpMessageConverters.forClient()
			.registerDefaults()
			.build();

		@Override
		public Object decode(Response response, Type type) throws IOException, FeignException {
			return read(this.converters.get(), response, type);
		}

	}

	/**
	 * A codec configured by properties whose factory builds its converters once, on its
	 * first call.
	 */
	public static final class OnceSupplierDecoder implements Decoder {

		private final Supplier<HttpMessageConverters> converters = SingletonSupplier
			.of(() -> HttpMessageConverters.forClient().registerDefaults().build());

		@Override
		public Object decode(Response response, Type type) throws IOException, FeignException {
			return read(this.converters.get(), response, type);
		}

	}

	/**
	 * Reads a response as an application's own codec would, with the first converter that
	 * can.
	 */
	@SuppressWarnings("unchecked")
	static Object read(Iterable<? extends HttpMessageConverter<?>> converters, Response response, Type type)
			throws IOException {
		HttpHeaders headers = new HttpHeaders();
		response.headers().forEach((name, values) -> headers.addAll(name, List.copyOf(values)));
		MediaType contentType = headers.getContentType();
		HttpInputMessage input = new HttpInputMessage() {

			@Override
			public InputStream getBody() throws IOException {
				return response.body().asInputStream();
			}

			@Override
			public HttpHeaders getHeaders() {
				return headers;
			}

		};
		for (HttpMessageConverter<?> converter : converters) {
			if (converter.canRead((Class<?>) type, contentType)) {
				return ((HttpMessageConverter<Object>) converter).read((Class<Object>) type, input);
			}
		}
		throw new IllegalStateException("no converter reads " + type + " as " + contentType);
	}

}
