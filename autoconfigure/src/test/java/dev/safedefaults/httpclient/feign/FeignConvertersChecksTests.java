package dev.safedefaults.httpclient.feign;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.CheckFindings;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.feign.TestClients.GreetingClient;
import dev.safedefaults.httpclient.feign.TestClients.IncidentClient;
import dev.safedefaults.httpclient.feign.TestClients.OtherClient;
import dev.safedefaults.httpclient.feign.TestClients.OwnConvertersClient;
import feign.FeignException;
import feign.Response;
import feign.codec.Decoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.bind.annotation.GetMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks {@code feign.per-call-converters} and {@code feign.default-converters}, on
 * clients whose server runs on loopback: the checks must find what they look for without
 * sending a request.
 */
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
	void theIncidentsCodecIsReportedWithTheClientsName() {
		this.runner.withUserConfiguration(WithIncidentClient.class).run((context) -> {
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).singleElement()
				.satisfies((finding) -> {
					assertThat(finding.severity()).isEqualTo(Severity.WARNING);
					assertThat(finding.subject()).isEqualTo("feign client 'incident'");
					assertThat(finding.message()).contains("decoder").contains("SpringDecoder.converters");
				});
			assertThat(context.getBean(IncidentClient.class).greeting("Ada").firstName()).isEqualTo("Hello Ada");
		});
	}

	@Test
	void everyClientsCodecsAreInspectedOnceForBothChecks() {
		TestClients.IncidentCodecConfiguration.getObjectCalls.set(0);
		this.runner.withUserConfiguration(WithIncidentClient.class).run((context) -> {
			assertThat(context).hasSingleBean(FeignCodecInspector.class);
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).hasSize(1);
			// The inspector asks a provider twice to see whether it yields a new object
			// per
			// call; the two checks share one inspection (it was four calls with two).
			assertThat(TestClients.IncidentCodecConfiguration.getObjectCalls).hasValue(2);
		});
	}

	@Test
	void theStartersConvertersAreNotReported() {
		this.runner.withUserConfiguration(TwoClients.class).run((context) -> {
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			assertThat(context.getBean(FeignClientFactory.class).getContextNames()).contains("greetings", "others");
		});
	}

	@Test
	void aLazyClientWithoutAContextIsCheckedWithoutSendingARequest() {
		int requestsBefore = server.requests();
		this.runner.withUserConfiguration(WithIncidentClient.class)
			.withPropertyValues("spring.cloud.openfeign.lazy-attributes-resolution=true")
			.run((context) -> {
				assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).extracting(Finding::subject)
					.containsExactly("feign client 'incident'");
				assertThat(context.getBean(FeignClientFactory.class).getContextNames()).contains("incident");
			});
		assertThat(server.requests()).isEqualTo(requestsBefore);
	}

	@Test
	void aCodecConfiguredByPropertiesIsChecked() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues(
					"spring.cloud.openfeign.client.config.greetings.decoder=" + SupplierDecoder.class.getName())
			.run((context) -> assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id()))
				.extracting(Finding::subject)
				.containsExactly("feign client 'greetings'"));
	}

	@Test
	void aDefaultCodecConfiguredByPropertiesIsCheckedForEveryClient() {
		this.runner.withUserConfiguration(TwoClients.class)
			.withPropertyValues(
					"spring.cloud.openfeign.client.config.default.decoder=" + SupplierDecoder.class.getName())
			.run((context) -> assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id()))
				.extracting(Finding::subject)
				.containsExactly("feign client 'greetings'", "feign client 'others'"));
	}

	@Test
	void anUnknownCodecWithAnObjectFactoryBuildingConvertersPerCallIsReported() {
		this.runner.withUserConfiguration(WithLegacyCodecClient.class).run((context) -> {
			assertThat(findings(context, FeignFindings.PER_CALL_CONVERTERS.id())).singleElement()
				.satisfies((finding) -> {
					assertThat(finding.subject()).isEqualTo("feign client 'legacy'");
					assertThat(finding.message()).contains("LegacyDecoder.converters");
				});
		});
	}

	@Test
	void aClientWhoseContextFailsIsReportedAndTheOthersAreStillChecked() {
		this.runner.withUserConfiguration(WithBrokenClient.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(findings(context, CheckFindings.CHECKS_FAILED.id())).extracting(Finding::subject)
				.containsExactly("feign client 'broken'");
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
			.run((context) -> assertThat(context.getBean(FindingsStore.class).findings()).isEmpty());
	}

	private static List<Finding> findings(AssertableApplicationContext context, String id) {
		return context.getBean(FindingsStore.class).findings().stream().filter((f) -> f.id().equals(id)).toList();
	}

	@FeignClient(name = "legacy", url = TestClients.URL, configuration = LegacyCodecConfiguration.class)
	interface LegacyClient {

		@GetMapping("/greetings/{name}")
		String greeting(String name);

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
			throw new UnsupportedOperationException("never called: the checks send no request");
		}

	}

	/** A codec configured by properties (so it has a public no-argument constructor). */
	public static final class SupplierDecoder implements Decoder {

		private final Supplier<HttpMessageConverters> converters = () -> HttpMessageConverters.forClient()
			.registerDefaults()
			.build();

		@Override
		public Object decode(Response response, Type type) throws IOException, FeignException {
			List<HttpMessageConverter<?>> list = new ArrayList<>();
			this.converters.get().forEach(list::add);
			throw new UnsupportedOperationException("never called: the checks send no request");
		}

	}

}
