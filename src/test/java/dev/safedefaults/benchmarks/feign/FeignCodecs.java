package dev.safedefaults.benchmarks.feign;

import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.httpclient.HttpClientConvertersAutoConfiguration;
import dev.safedefaults.httpclient.feign.CodecAllocationCapability;
import dev.safedefaults.httpclient.feign.FeignConvertersAutoConfiguration;
import feign.Capability;
import feign.Request;
import feign.RequestTemplate;
import feign.Response;
import feign.codec.Decoder;
import feign.codec.Encoder;
import feign.optionals.OptionalDecoder;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.cloud.openfeign.EnableFeignClients;
import org.springframework.cloud.openfeign.FeignAutoConfiguration;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.FeignClientFactory;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.cloud.openfeign.support.ResponseEntityDecoder;
import org.springframework.cloud.openfeign.support.SpringDecoder;
import org.springframework.cloud.openfeign.support.SpringEncoder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The codecs every Feign call goes through ({@code SpringDecoder} for a small JSON
 * response, {@code SpringEncoder} for a request body) with five converters setups, for
 * {@link FeignDecodeBenchmark} and {@link FeignEncodeBenchmark} (incident 1):
 * <ul>
 * <li>{@code perCallConverters} (a): the incident on OpenFeign 5, a provider whose
 * {@code getObject()} builds a new {@code FeignHttpMessageConverters} (all the defaults)
 * on every call, with the application's customizers injected (so its JSON converter
 * reuses the application's {@code JsonMapper});</li>
 * <li>{@code perCallStandalone} (a′): the same without the application's customizers:
 * every call also builds a new {@code JsonMapper} with cold caches, as the incident's
 * {@code Jackson2ObjectMapperBuilder} did;</li>
 * <li>{@code starter} (b): the client's codecs with safe-defaults on;</li>
 * <li>{@code upstreamDefaults} (c): the client's codecs with
 * {@code safe-defaults.feign.enabled=false}: OpenFeign's default set, built once per
 * client;</li>
 * <li>{@code handWritten} (d): the best hand-written setup, a singleton built by hand
 * without defaults;</li>
 * <li>{@code applicationCodec} (e): an application's own decoder holding a converters
 * factory (the singleton of (d)), and {@code applicationCodecWatched} (e′): the same as
 * the starter's capability wraps it (after its first, measured, calls): the cost of the
 * wrapper on the call path.</li>
 * </ul>
 * (b) and (c) are the real codecs of a real client context; (a) and (d) are wrapped the
 * same way ({@code OptionalDecoder} > {@code ResponseEntityDecoder} >
 * {@code SpringDecoder}). Run without JAXB on the class path:
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests -Dbenchmark="Feign(De|En)codeBenchmark -f 2 -wi 4 -w 2s -i 4 -r 2s"}
 * and with it (jakarta.xml.bind-api and a JAXB runtime): the same with
 * {@code -Pbenchmarks,jaxb}.
 * <p>
 * The class path here is flat (directories and plain jars). In the incident the service
 * ran from a fat jar, where every failed class or service lookup made while building
 * converters walks the nested jars: the per-call variants cost more there than here.
 */
@State(Scope.Benchmark)
public class FeignCodecs {

	private static final byte[] JSON = "{\"id\":42,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\",\"active\":true}"
		.getBytes(StandardCharsets.UTF_8);

	private static final Customer CUSTOMER = new Customer(42, "Ada Lovelace", "ada@example.com", true);

	private ConfigurableApplicationContext starter;

	private ConfigurableApplicationContext upstream;

	Decoder perCallConvertersDecoder;

	Encoder perCallConvertersEncoder;

	Decoder perCallStandaloneDecoder;

	Encoder perCallStandaloneEncoder;

	Decoder starterDecoder;

	Encoder starterEncoder;

	Decoder upstreamDefaultsDecoder;

	Encoder upstreamDefaultsEncoder;

	Decoder handWrittenDecoder;

	Decoder applicationDecoder;

	Decoder applicationDecoderWatched;

	Encoder handWrittenEncoder;

	private Response response;

	@Setup(Level.Trial)
	public void setUp() throws Exception {
		this.starter = application(true);
		this.upstream = application(false);
		FeignClientFactory starterClients = this.starter.getBean(FeignClientFactory.class);
		this.starterDecoder = starterClients.getInstance("customers", Decoder.class);
		this.starterEncoder = starterClients.getInstance("customers", Encoder.class);
		FeignClientFactory upstreamClients = this.upstream.getBean(FeignClientFactory.class);
		this.upstreamDefaultsDecoder = upstreamClients.getInstance("customers", Decoder.class);
		this.upstreamDefaultsEncoder = upstreamClients.getInstance("customers", Encoder.class);

		// (a) The incident: a new converters object, with all the defaults, per call.
		ObjectProvider<ClientHttpMessageConvertersCustomizer> customizers = this.upstream
			.getBeanProvider(ClientHttpMessageConvertersCustomizer.class);
		ObjectProvider<HttpMessageConverterCustomizer> feignCustomizers = this.upstream
			.getBeanProvider(HttpMessageConverterCustomizer.class);
		ObjectProvider<FeignHttpMessageConverters> perCall = new ObjectProvider<>() {

			@Override
			public FeignHttpMessageConverters getObject() {
				return new FeignHttpMessageConverters(customizers, feignCustomizers);
			}

		};
		this.perCallConvertersDecoder = decoder(perCall);
		this.perCallConvertersEncoder = new SpringEncoder(perCall);
		ObjectProvider<FeignHttpMessageConverters> perCallStandalone = new ObjectProvider<>() {

			@Override
			public FeignHttpMessageConverters getObject() {
				return new FeignHttpMessageConverters(none(), none());
			}

		};
		this.perCallStandaloneDecoder = decoder(perCallStandalone);
		this.perCallStandaloneEncoder = new SpringEncoder(perCallStandalone);

		// (d) By hand: one list, built once, only what a JSON client needs.
		StringHttpMessageConverter string = new StringHttpMessageConverter(StandardCharsets.UTF_8);
		string.setWriteAcceptCharset(false);
		List<HttpMessageConverter<?>> converters = List.of(new ByteArrayHttpMessageConverter(), string,
				new JacksonJsonHttpMessageConverter(this.starter.getBean(JsonMapper.class)));
		FeignHttpMessageConverters handWritten = new FeignHttpMessageConverters(none(), none()) {

			@Override
			public List<HttpMessageConverter<?>> getConverters() {
				return converters;
			}

		};
		ObjectProvider<FeignHttpMessageConverters> singleton = new ObjectProvider<>() {

			@Override
			public FeignHttpMessageConverters getObject() {
				return handWritten;
			}

		};
		this.handWrittenDecoder = decoder(singleton);
		this.handWrittenEncoder = new SpringEncoder(singleton);

		// (e) An application's own codec holding a converters factory (built once here):
		// as it is, and as the starter's capability wraps it to watch its first calls
		// after startup (the run-time side of feign.per-call-converters).
		this.applicationDecoder = new ApplicationDecoder(() -> converters);
		this.starter.publishEvent(
				new ApplicationReadyEvent(new SpringApplication(), new String[0], this.starter, Duration.ZERO));
		Capability watching = starterClients.getInstances("customers", Capability.class)
			.values()
			.stream()
			.filter(CodecAllocationCapability.class::isInstance)
			.findFirst()
			.orElseThrow();
		this.applicationDecoderWatched = watching.enrich(new ApplicationDecoder(() -> converters));
		if (this.applicationDecoderWatched instanceof ApplicationDecoder) {
			throw new IllegalStateException("The application's codec is not watched");
		}

		this.response = Response.builder()
			.status(200)
			.reason("OK")
			.headers(Map.<String, Collection<String>>of("Content-Type", List.of("application/json")))
			.request(Request.create(Request.HttpMethod.GET, "http://127.0.0.1/customers/42", Map.of(), null,
					StandardCharsets.UTF_8, null))
			.body(JSON)
			.build();
		for (Decoder decoder : List.of(this.perCallConvertersDecoder, this.perCallStandaloneDecoder,
				this.starterDecoder, this.upstreamDefaultsDecoder, this.handWrittenDecoder, this.applicationDecoder,
				this.applicationDecoderWatched)) {
			if (!CUSTOMER.equals(decoder.decode(this.response, Customer.class))) {
				throw new IllegalStateException("Decoding is broken with " + decoder);
			}
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.starter.close();
		this.upstream.close();
	}

	Object decode(Decoder decoder) throws Exception {
		return decoder.decode(this.response, Customer.class);
	}

	static RequestTemplate encode(Encoder encoder) {
		RequestTemplate template = new RequestTemplate();
		template.header("Content-Type", "application/json");
		encoder.encode(CUSTOMER, Customer.class, template);
		return template;
	}

	private static Decoder decoder(ObjectProvider<FeignHttpMessageConverters> converters) {
		return new OptionalDecoder(new ResponseEntityDecoder(new SpringDecoder(converters)));
	}

	/**
	 * A plain context rather than a SpringApplication: the sample app's jar is on this
	 * module's class path, and its context initializers must not run here.
	 */
	private static ConfigurableApplicationContext application(boolean starterEnabled) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("benchmark", Map.of("safe-defaults.feign.enabled",
					String.valueOf(starterEnabled), "safe-defaults.checks.enabled", "false")));
		context.register(BenchmarkApplication.class);
		context.refresh();
		return context;
	}

	private static <T> ObjectProvider<T> none() {
		return new ObjectProvider<>() {

			@Override
			public Stream<T> stream() {
				return Stream.empty();
			}

		};
	}

	/**
	 * An application's own decoder that gets its converters from a factory it holds (a
	 * {@code Supplier} of a list, yielding the same list every time here).
	 */
	static final class ApplicationDecoder implements Decoder {

		private final Supplier<List<HttpMessageConverter<?>>> converters;

		private final Decoder delegate;

		ApplicationDecoder(Supplier<List<HttpMessageConverter<?>>> converters) {
			this.converters = converters;
			FeignHttpMessageConverters feign = new FeignHttpMessageConverters(none(), none()) {

				@Override
				public List<HttpMessageConverter<?>> getConverters() {
					return ApplicationDecoder.this.converters.get();
				}

			};
			this.delegate = decoder(new ObjectProvider<>() {

				@Override
				public FeignHttpMessageConverters getObject() {
					return feign;
				}

			});
		}

		@Override
		public Object decode(Response response, Type type) throws IOException {
			return this.delegate.decode(response, type);
		}

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

	/** A client that is never called: only its codecs are used. */
	@FeignClient(name = "customers", url = "http://127.0.0.1:1")
	public interface CustomerClient {

		@GetMapping("/customers/42")
		Customer customer();

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ SafeDefaultsAutoConfiguration.class, HttpClientConvertersAutoConfiguration.class,
			FeignConvertersAutoConfiguration.class, JacksonAutoConfiguration.class,
			HttpMessageConvertersAutoConfiguration.class, FeignAutoConfiguration.class })
	@EnableFeignClients(clients = CustomerClient.class)
	static class BenchmarkApplication {

	}

}
