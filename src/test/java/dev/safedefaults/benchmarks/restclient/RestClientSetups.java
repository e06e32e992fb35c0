package dev.safedefaults.benchmarks.restclient;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.restclient.RestClientConvertersAutoConfiguration;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;
import org.springframework.web.client.RestClient;

/**
 * The clients every {@code RestClient} call goes through, for
 * {@link RestClientDecodeBenchmark} and {@link RestClientEncodeBenchmark} (incident 1 in
 * Spring's own client API), with five setups:
 * <ul>
 * <li>{@code perCallBuild} (a): the trap, Boot's {@code RestClient.Builder} asked for and
 * built on every call, Boot's converters (the defaults, every Jackson format on the class
 * path);</li>
 * <li>{@code perCallBuildStarter} (a′): the same trap with the starter on: still a client
 * per call, but its converters are the shared instances;</li>
 * <li>{@code starter} (b): a client built once from Boot's builder with safe-defaults on
 * (the shared converters set);</li>
 * <li>{@code upstreamDefaults} (c): a client built once from Boot's builder with
 * {@code safe-defaults.restclient.enabled=false}: Boot's converters, the defaults
 * included;</li>
 * <li>{@code handWritten} (d): the best hand-written setup, a singleton built by hand
 * with byte array, String and JSON on the application's mapper.</li>
 * </ul>
 * No network: every client sends through the same in-memory request factory, which
 * answers a small JSON body, so what differs is the client and its converters. Run:
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests -Dbenchmark="RestClient(De|En)codeBenchmark -f 2 -wi 4 -w 2s -i 4 -r 2s"}.
 */
@State(Scope.Benchmark)
public class RestClientSetups {

	private static final byte[] JSON = "{\"id\":42,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\",\"active\":true}"
		.getBytes(StandardCharsets.UTF_8);

	static final Customer CUSTOMER = new Customer(42, "Ada Lovelace", "ada@example.com", true);

	static final ClientHttpRequestFactory IN_MEMORY = (uri, method) -> {
		MockClientHttpRequest request = new MockClientHttpRequest(method, uri);
		MockClientHttpResponse response = new MockClientHttpResponse(JSON, HttpStatus.OK);
		response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
		request.setResponse(response);
		return request;
	};

	private ConfigurableApplicationContext starterContext;

	private ConfigurableApplicationContext upstreamContext;

	ObjectProvider<RestClient.Builder> upstreamBuilders;

	ObjectProvider<RestClient.Builder> starterBuilders;

	RestClient starter;

	RestClient upstreamDefaults;

	RestClient handWritten;

	@Setup(Level.Trial)
	public void setUp() {
		this.starterContext = application(true);
		this.upstreamContext = application(false);
		this.starterBuilders = this.starterContext.getBeanProvider(RestClient.Builder.class);
		this.upstreamBuilders = this.upstreamContext.getBeanProvider(RestClient.Builder.class);
		this.starter = build(this.starterBuilders);
		this.upstreamDefaults = build(this.upstreamBuilders);
		StringHttpMessageConverter string = new StringHttpMessageConverter(StandardCharsets.UTF_8);
		string.setWriteAcceptCharset(false);
		this.handWritten = RestClient.builder()
			.requestFactory(IN_MEMORY)
			.messageConverters(List.of(new ByteArrayHttpMessageConverter(), string,
					new JacksonJsonHttpMessageConverter(this.starterContext.getBean(JsonMapper.class))))
			.build();
		for (RestClient client : List.of(this.starter, this.upstreamDefaults, this.handWritten,
				build(this.starterBuilders), build(this.upstreamBuilders))) {
			if (!CUSTOMER.equals(decode(client)) || encode(client) != 200) {
				throw new IllegalStateException("A client is broken: " + client);
			}
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.starterContext.close();
		this.upstreamContext.close();
	}

	static RestClient build(ObjectProvider<RestClient.Builder> builders) {
		return builders.getObject().requestFactory(IN_MEMORY).build();
	}

	static Customer decode(RestClient client) {
		return client.get().uri("http://127.0.0.1/customers/42").retrieve().body(Customer.class);
	}

	static int encode(RestClient client) {
		return client.post()
			.uri("http://127.0.0.1/customers")
			.contentType(MediaType.APPLICATION_JSON)
			.body(CUSTOMER)
			.retrieve()
			.toBodilessEntity()
			.getStatusCode()
			.value();
	}

	/**
	 * A plain context rather than a SpringApplication: the sample app's jar is on this
	 * module's class path, and its context initializers must not run here.
	 */
	private static ConfigurableApplicationContext application(boolean starterEnabled) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("benchmark", Map.of("safe-defaults.restclient.enabled",
					String.valueOf(starterEnabled), "safe-defaults.checks.enabled", "false")));
		context.register(BenchmarkApplication.class);
		context.refresh();
		return context;
	}

	/**
	 * A small JSON body.
	 *
	 * @param id an id
	 * @param name a name
	 * @param email an address
	 * @param active a flag
	 */
	public record Customer(long id, String name, String email, boolean active) {
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class,
			RestClientConvertersAutoConfiguration.class, JacksonAutoConfiguration.class,
			HttpMessageConvertersAutoConfiguration.class, RestClientAutoConfiguration.class })
	static class BenchmarkApplication {

	}

}
