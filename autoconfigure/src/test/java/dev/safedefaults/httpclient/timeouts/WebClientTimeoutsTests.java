package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.autoconfigure.HttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientAutoConfiguration;
import org.springframework.boot.http.client.autoconfigure.reactive.ReactiveHttpClientAutoConfiguration;
import org.springframework.boot.http.client.reactive.ClientHttpConnectorBuilder;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;

import static dev.safedefaults.httpclient.timeouts.TimedCall.assertGivesUpAfter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebClient's connector follows the imperative clients' rule (issue 52): Boot builds it
 * from the same settings, so the starter's defaults fill what the application left unset,
 * and what the application chose for this connector wins: its own
 * {@code ClientHttpConnectorBuilder} gets no default
 * ({@link DefaultsFreeConnectorBuilder}), its own {@code ClientHttpConnector} bean or
 * {@code WebClientCustomizer} keeps its own timeouts, and the status names each. A
 * builder the application brought for the imperative clients is no choice for WebClient:
 * its connector keeps the defaults, and the status now says so (before, it said no client
 * had them). Each call goes to a downstream that never answers, timed.
 * {@code ReactiveConnectors} (what the starter knows of Boot's reactive builders and
 * connector beans) is covered here: a lambda builder is stood back for, an application's
 * connector bean is named, and without the reactive classes the status has no WebClient
 * entry.
 */
@Tag("reactive")
class WebClientTimeoutsTests {

	private static final Duration APPLICATIONS_READ = Duration.ofMillis(400);

	private static SilentDownstream silent;

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, HttpClientTimeoutsAutoConfiguration.class,
					HttpMessageConvertersAutoConfiguration.class, HttpClientAutoConfiguration.class,
					ImperativeHttpClientAutoConfiguration.class, RestClientAutoConfiguration.class,
					ReactiveHttpClientAutoConfiguration.class, WebClientAutoConfiguration.class));

	@BeforeAll
	static void startServer() throws IOException {
		silent = new SilentDownstream();
	}

	@AfterAll
	static void stopServer() throws IOException {
		silent.close();
	}

	@Test
	void bootsWebClientTakesTheApplicationsPropertyAndTheStatusNamesOneEntryForEveryClient() {
		this.runner.withPropertyValues("spring.http.clients.read-timeout=400ms").run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> call(bootsWebClient(context)), WebClientRequestException.class);
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.startsWith("Boot's HTTP clients: connect 10s (safe-defaults), read 400ms (the application's "
						+ "spring.http.clients.read-timeout");
		});
	}

	@Test
	void bootsWebClientGetsTheStartersDefault() {
		this.runner.withPropertyValues("safe-defaults.http-client-timeouts.read=700ms")
			.run((context) -> assertGivesUpAfter(Duration.ofMillis(700), () -> call(bootsWebClient(context)),
					WebClientRequestException.class));
	}

	@Test
	void aConnectorBuilderOfTheApplicationsGetsNoDefaultAndTheStatusSaysTheStarterStoodBack() {
		this.runner.withUserConfiguration(OwnConnectorBuilder.class).run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> call(bootsWebClient(context)), WebClientRequestException.class);
			HttpClientSettings seen = context.getBean(OwnConnectorBuilder.class).seen.get();
			assertThat(seen).isNotNull();
			assertThat(seen.connectTimeout()).as("connect timeout the application's builder was given").isNull();
			assertThat(seen.readTimeout()).as("read timeout the application's builder was given").isNull();
			assertThat(status(context).appliedTo()).containsExactly(
					"Boot's RestClient and RestTemplate: connect 10s (safe-defaults), read 60s (safe-defaults)");
			assertThat(status(context).reason()).isEqualTo("kept their own: Boot's WebClient: connect as the "
					+ "connector of the ClientHttpConnectorBuilder bean 'ownConnector' (none of Boot's builders: the "
					+ "application's, or one its ClientHttpConnectorBuilderCustomizer returned) sets it (safe-defaults "
					+ "adds none to it), read as the connector of the ClientHttpConnectorBuilder bean 'ownConnector' "
					+ "(none of Boot's builders: the application's, or one its ClientHttpConnectorBuilderCustomizer "
					+ "returned) sets it (safe-defaults adds none to it)");
		});
	}

	@Test
	void aConnectorBuilderOfTheApplicationsGetsTheApplicationsOwnProperty() {
		this.runner.withUserConfiguration(OwnConnectorBuilder.class)
			.withPropertyValues("spring.http.clients.read-timeout=300ms")
			.run((context) -> {
				assertGivesUpAfter(Duration.ofMillis(300), () -> call(bootsWebClient(context)),
						WebClientRequestException.class);
				assertThat(context.getBean(OwnConnectorBuilder.class).seen.get().readTimeout())
					.isEqualTo(Duration.ofMillis(300));
			});
	}

	@Test
	void aConnectorBeanOfTheApplicationsKeepsItsTimeoutAndIsNamed() {
		this.runner.withUserConfiguration(OwnConnector.class).run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> call(bootsWebClient(context)), WebClientRequestException.class);
			assertThat(status(context).reason()).contains("Boot's WebClient: connect as the application's "
					+ "ClientHttpConnector bean 'ownConnector' sets it (Boot's settings, and so safe-defaults' "
					+ "defaults, do not reach it)");
			assertThat(status(context).appliedTo()).containsExactly(
					"Boot's RestClient and RestTemplate: connect 10s (safe-defaults), read 60s (safe-defaults)");
		});
	}

	@Test
	void aWebClientCustomizerWithItsOwnConnectorKeepsItAndIsNamed() {
		this.runner.withUserConfiguration(OwnWebClientConnector.class).run((context) -> {
			assertGivesUpAfter(APPLICATIONS_READ, () -> call(bootsWebClient(context)), WebClientRequestException.class);
			assertThat(status(context).appliedTo()).singleElement()
				.asString()
				.contains("then the application's WebClientCustomizer beans (ownConnectorCustomizer): a connector one "
						+ "of them gives WebClient.Builder keeps its own timeouts instead");
		});
	}

	@Test
	void anImperativeBuilderOfTheApplicationsIsNoChoiceForWebClientAndTheStatusSaysWhichClientGotWhat() {
		this.runner.withUserConfiguration(OwnImperativeFactory.class)
			.withPropertyValues("safe-defaults.http-client-timeouts.read=1500ms")
			.run((context) -> {
				assertGivesUpAfter(Duration.ofMillis(1500), () -> call(bootsWebClient(context)),
						WebClientRequestException.class);
				assertThat(status(context).appliedTo())
					.containsExactly("Boot's WebClient: connect 10s (safe-defaults), read 1500ms (safe-defaults)");
				assertThat(status(context).reason()).startsWith("kept their own: Boot's RestClient and RestTemplate: "
						+ "connect as the request factory of the application's ClientHttpRequestFactoryBuilder bean "
						+ "'ownFactory' sets it");
			});
	}

	@Test
	void withoutReactiveClientSupportTheStatusHasNoWebClientEntry() {
		this.runner
			.withClassLoader(new FilteredClassLoader("org.springframework.http.client.reactive.",
					"org.springframework.boot.http.client.reactive.", "reactor.core."))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(ClientHttpConnector.class);
				assertThat(status(context).appliedTo())
					.containsExactly("Boot's HTTP clients: connect 10s (safe-defaults), read 60s (safe-defaults)");
			});
	}

	private static WebClient bootsWebClient(AssertableApplicationContext context) {
		return context.getBean(WebClient.Builder.class).baseUrl(silent.url() + "/anything").build();
	}

	private static String call(WebClient client) {
		return client.get().retrieve().bodyToMono(String.class).block(Duration.ofSeconds(70));
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
	static class OwnConnectorBuilder {

		final AtomicReference<HttpClientSettings> seen = new AtomicReference<>();

		/**
		 * A builder of the application's: Boot's settings where the application set them,
		 * its own read timeout where not.
		 */
		@Bean
		ClientHttpConnectorBuilder<JdkClientHttpConnector> ownConnector() {
			return (settings) -> {
				this.seen.set(settings);
				JdkClientHttpConnector connector = ClientHttpConnectorBuilder.jdk().build(settings);
				if (settings == null || settings.readTimeout() == null) {
					connector.setReadTimeout(APPLICATIONS_READ);
				}
				return connector;
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnConnector {

		@Bean
		ClientHttpConnector ownConnector() {
			JdkClientHttpConnector connector = new JdkClientHttpConnector(HttpClient.newHttpClient());
			connector.setReadTimeout(APPLICATIONS_READ);
			return connector;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnWebClientConnector {

		@Bean
		WebClientCustomizer ownConnectorCustomizer() {
			JdkClientHttpConnector connector = new JdkClientHttpConnector(HttpClient.newHttpClient());
			connector.setReadTimeout(APPLICATIONS_READ);
			return (builder) -> builder.clientConnector(connector);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnImperativeFactory {

		@Bean
		ClientHttpRequestFactoryBuilder<JdkClientHttpRequestFactory> ownFactory() {
			return ClientHttpRequestFactoryBuilder
				.of(() -> new JdkClientHttpRequestFactory(HttpClient.newHttpClient()));
		}

	}

}
