package dev.safedefaults.benchmarks.webclient;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.httpclient.webclient.WebClientBuildsAutoConfiguration;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ClientHttpConnector;
import org.springframework.mock.http.client.reactive.MockClientHttpRequest;
import org.springframework.mock.http.client.reactive.MockClientHttpResponse;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The clients every {@code WebClient} call of {@link WebClientDecodeBenchmark} goes
 * through (issue 52; spring-framework #27325: Boot's {@code WebClient.Builder} runs every
 * {@code CodecCustomizer} on each build, so a client built per request makes its codecs
 * again), with four setups:
 * <ul>
 * <li>{@code perCallBuild} (a): the trap, Boot's {@code WebClient.Builder} asked for and
 * built on every call, without the starter;</li>
 * <li>{@code perCallBuildStarter} (a′): the same trap with the starter on, the
 * application ready: every builder and build counted and the first callers named
 * ({@code webclient.per-request-build});</li>
 * <li>{@code builtOnce} (b): a client built once from Boot's builder, without the
 * starter;</li>
 * <li>{@code starter} (c): a client built once from Boot's builder with the starter
 * on.</li>
 * </ul>
 * No network: every client sends through the same in-memory connector, which answers a
 * small JSON body, so what differs is the client and its codecs. Run:
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests -Dbenchmark="WebClientDecodeBenchmark -f 1 -wi 3 -w 2s -i 3 -r 2s"}.
 */
@State(Scope.Benchmark)
public class WebClientSetups {

	private static final byte[] JSON = "{\"id\":42,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\",\"active\":true}"
		.getBytes(StandardCharsets.UTF_8);

	static final Customer CUSTOMER = new Customer(42, "Ada Lovelace", "ada@example.com", true);

	static final ClientHttpConnector IN_MEMORY = (method, uri, requestCallback) -> requestCallback
		.apply(new MockClientHttpRequest(method, uri))
		.then(Mono.fromSupplier(() -> {
			MockClientHttpResponse response = new MockClientHttpResponse(HttpStatus.OK);
			response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
			response.setBody(Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(JSON)));
			return response;
		}));

	private ConfigurableApplicationContext starterContext;

	private ConfigurableApplicationContext upstreamContext;

	ObjectProvider<WebClient.Builder> upstreamBuilders;

	ObjectProvider<WebClient.Builder> starterBuilders;

	WebClient builtOnce;

	WebClient starter;

	@Setup(Level.Trial)
	public void setUp() {
		this.starterContext = application(true);
		this.upstreamContext = application(false);
		this.starterBuilders = this.starterContext.getBeanProvider(WebClient.Builder.class);
		this.upstreamBuilders = this.upstreamContext.getBeanProvider(WebClient.Builder.class);
		this.starter = build(this.starterBuilders);
		this.builtOnce = build(this.upstreamBuilders);
		// From here on the starter counts, as in a running application.
		this.starterContext.publishEvent(
				new ApplicationReadyEvent(new SpringApplication(), new String[0], this.starterContext, Duration.ZERO));
		for (WebClient client : new WebClient[] { this.starter, this.builtOnce, build(this.starterBuilders),
				build(this.upstreamBuilders) }) {
			if (!CUSTOMER.equals(decode(client))) {
				throw new IllegalStateException("A client is broken: " + client);
			}
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.starterContext.close();
		this.upstreamContext.close();
	}

	static WebClient build(ObjectProvider<WebClient.Builder> builders) {
		return builders.getObject().clientConnector(IN_MEMORY).build();
	}

	static Customer decode(WebClient client) {
		return client.get().uri("http://127.0.0.1/customers/42").retrieve().bodyToMono(Customer.class).block();
	}

	/**
	 * A plain context rather than a SpringApplication: the sample app's jar is on this
	 * module's class path, and its context initializers must not run here.
	 */
	private static ConfigurableApplicationContext application(boolean starterEnabled) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("benchmark", Map.of("safe-defaults.enabled", String.valueOf(starterEnabled),
					"safe-defaults.checks.enabled", "false")));
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
	@ImportAutoConfiguration({ SafeDefaultsAutoConfiguration.class, WebClientBuildsAutoConfiguration.class,
			JacksonAutoConfiguration.class, CodecsAutoConfiguration.class, WebClientAutoConfiguration.class })
	static class BenchmarkApplication {

	}

}
