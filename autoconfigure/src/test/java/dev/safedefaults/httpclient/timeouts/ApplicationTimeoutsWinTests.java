package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.service.HttpServiceClientPropertiesAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestTemplateAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.service.HttpServiceClientAutoConfiguration;
import org.springframework.boot.support.SystemEnvironmentPropertySourceEnvironmentPostProcessor;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import static dev.safedefaults.httpclient.timeouts.TimedCall.assertGivesUpAfter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * "What the application sets always wins": every way Boot honours for an application to
 * give its clients a timeout keeps the application's value, and the status names it as
 * the application's. Each call goes to a downstream that never answers, so the time it
 * gives up after tells which timeout applied: the application's short one, never the
 * starter's 60 s. Covers {@code DefaultsFreeBuilder}: a request factory of the
 * application's from {@code ClientHttpRequestFactoryBuilder.of(supplier)}, JDK or simple,
 * starts and keeps its own read timeout.
 */
class ApplicationTimeoutsWinTests {

	private static final Duration APPLICATIONS_READ = Duration.ofMillis(400);

	private static SilentDownstream silent;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class,
				HttpClientTimeoutsAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
				HttpClientAutoConfiguration.class, ImperativeHttpClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, RestTemplateAutoConfiguration.class,
				HttpServiceClientPropertiesAutoConfiguration.class, HttpServiceClientAutoConfiguration.class));

	@BeforeAll
	static void startServer() throws IOException {
		silent = new SilentDownstream();
	}

	@AfterAll
	static void stopServer() throws IOException {
		silent.close();
	}

	@Test
	void aRelaxedFormOfTheGlobalKeyWinsAndIsReportedAsTheApplications() {
		this.runner.withPropertyValues("spring.http.clients.readTimeout=400ms").run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> bootsClient(context).get().retrieve().body(String.class));
			assertThat(status(context).appliedTo()).containsExactly("Boot's HTTP clients: connect 10s (safe-defaults), "
					+ "read 400ms (the application's spring.http.clients.read-timeout, from \"spring.http.clients.readTimeout\" "
					+ "from property source \"test\")");
		});
	}

	@Test
	void anEnvironmentVariableWinsAndIsReportedAsTheApplications() {
		this.runner.withInitializer((context) -> {
			context.getEnvironment()
				.getPropertySources()
				.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("SPRING_HTTP_CLIENTS_READTIMEOUT", "400ms")));
			// As SpringApplication does: the variables then know their origin.
			new SystemEnvironmentPropertySourceEnvironmentPostProcessor()
				.postProcessEnvironment(context.getEnvironment(), new SpringApplication());
		}).run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> bootsClient(context).get().retrieve().body(String.class));
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("read 400ms (the application's spring.http.clients.read-timeout, "
						+ "from System Environment Property \"SPRING_HTTP_CLIENTS_READTIMEOUT\")")
				.doesNotContain("read 400ms (safe-defaults)");
			assertThat(status(context).shortForm()).as("the startup line claims no value of the application's")
				.isEqualTo("http-client-timeouts");
		});
	}

	@Test
	void aPropertySourceOfTheApplicationsWins() {
		this.runner.withUserConfiguration(OwnPropertySource.class).run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> bootsClient(context).get().retrieve().body(String.class));
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("read 400ms (the application's spring.http.clients.read-timeout");
		});
	}

	@Test
	void aJdkFactoryFromASupplierStartsKeepsItsTimeoutAndTheStatusSaysTheStarterStoodBack() {
		this.runner.withUserConfiguration(OwnJdkFactory.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertGivesUpAfter(APPLICATIONS_READ, () -> bootsClient(context).get().retrieve().body(String.class));
			assertThat(status(context).reason()).contains("Boot's HTTP clients: connect as the request factory of "
					+ "the application's ClientHttpRequestFactoryBuilder bean 'ownFactory' sets it (safe-defaults adds "
					+ "none to it), read as the request factory of the application's ClientHttpRequestFactoryBuilder "
					+ "bean 'ownFactory' sets it (safe-defaults adds none to it)");
			assertThat(status(context).appliedTo()).isEmpty();
		});
	}

	@Test
	void aSimpleFactoryFromASupplierKeepsItsReadTimeout() {
		this.runner.withUserConfiguration(OwnSimpleFactory.class)
			.run((context) -> assertGivesUpAfter(APPLICATIONS_READ,
					() -> bootsClient(context).get().retrieve().body(String.class)));
	}

	@Test
	void aFactoryBuilderCustomizerRunsAfterTheDefaultAndTheStatusSaysSo() {
		this.runner.withUserConfiguration(OwnFactoryCustomizer.class).run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> bootsClient(context).get().retrieve().body(String.class));
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("then the application's ClientHttpRequestFactoryBuilderCustomizer beans "
						+ "(readTimeoutCustomizer), which may set their own");
		});
	}

	@Test
	void aRestClientCustomizerWithItsOwnFactoryKeepsItAndIsNamed() {
		this.runner.withUserConfiguration(OwnRestClientFactory.class).run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> bootsClient(context).get().retrieve().body(String.class));
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("then the application's RestClientCustomizer beans (ownFactoryCustomizer): a request factory "
						+ "one of them gives RestClient.Builder keeps its own timeouts instead");
		});
	}

	private static RestClient bootsClient(AssertableApplicationContext context) {
		return context.getBean(RestClient.Builder.class).baseUrl(silent.url() + "/anything").build();
	}

	private static FeatureStatus status(AssertableApplicationContext context) {
		return context.getBeansOfType(FeatureStatusReporter.class)
			.values()
			.stream()
			.map(FeatureStatusReporter::status)
			.filter((status) -> status.feature().equals("http-client-timeouts"))
			.findFirst()
			.orElseThrow();
	}

	@Configuration(proxyBeanMethods = false)
	@PropertySource("classpath:dev/safedefaults/httpclient/timeouts/own-timeouts.properties")
	static class OwnPropertySource {

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnJdkFactory {

		@Bean
		ClientHttpRequestFactoryBuilder<JdkClientHttpRequestFactory> ownFactory() {
			return ClientHttpRequestFactoryBuilder.of(() -> {
				JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(
						HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
				factory.setReadTimeout(APPLICATIONS_READ);
				return factory;
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnSimpleFactory {

		@Bean
		ClientHttpRequestFactoryBuilder<SimpleClientHttpRequestFactory> ownFactory() {
			return ClientHttpRequestFactoryBuilder.of(() -> {
				SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
				factory.setReadTimeout(APPLICATIONS_READ);
				return factory;
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnFactoryCustomizer {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<ClientHttpRequestFactoryBuilder<?>> readTimeoutCustomizer() {
			return (builder) -> ClientHttpRequestFactoryBuilder.jdk()
				.withCustomizer((factory) -> factory.setReadTimeout(APPLICATIONS_READ));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnRestClientFactory {

		@Bean
		RestClientCustomizer ownFactoryCustomizer() {
			SimpleClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
			factory.setReadTimeout(APPLICATIONS_READ);
			return (builder) -> builder.requestFactory(factory);
		}

	}

}
