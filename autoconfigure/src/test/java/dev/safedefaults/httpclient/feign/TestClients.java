package dev.safedefaults.httpclient.feign;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.httpclient.feign.LoopbackServer.Greeting;
import feign.codec.Decoder;
import feign.optionals.OptionalDecoder;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlRootElement;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.http.converter.autoconfigure.ClientHttpMessageConvertersCustomizer;
import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.cloud.openfeign.support.FeignHttpMessageConverters;
import org.springframework.cloud.openfeign.support.HttpMessageConverterCustomizer;
import org.springframework.cloud.openfeign.support.ResponseEntityDecoder;
import org.springframework.cloud.openfeign.support.SpringDecoder;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.AbstractHttpMessageConverter;
import org.springframework.util.StreamUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;

/**
 * The Feign clients and client configurations the Feign tests use. Client configurations
 * are plain classes (no {@code @Configuration}), as OpenFeign's documentation advises, so
 * that only the client's own context registers them.
 */
final class TestClients {

	static final String URL = "${test.server.url}";

	private TestClients() {
	}

	@FeignClient(name = "greetings", url = URL)
	interface GreetingClient {

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name);

		@GetMapping("/greetings/{name}")
		Optional<Greeting> optionalGreeting(@PathVariable("name") String name);

		@GetMapping("/nothing")
		Optional<Greeting> nothing();

		@GetMapping("/greetings/{name}")
		ResponseEntity<Greeting> greetingEntity(@PathVariable("name") String name);

		@GetMapping("/snake")
		Greeting snake();

		@PostMapping(path = "/echo", consumes = MediaType.APPLICATION_JSON_VALUE)
		String echo(Greeting greeting);

		@PostMapping(path = "/form", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
		String form(Map<String, ?> form);

		@GetMapping("/note")
		Note note();

	}

	@FeignClient(name = "others", url = URL)
	interface OtherClient {

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name);

	}

	@FeignClient(name = "shouting", url = URL, configuration = ShoutingConfiguration.class)
	interface ShoutingClient {

		@GetMapping("/shout")
		Shout shout();

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name);

	}

	@FeignClient(name = "own-converters", url = URL, configuration = OwnConvertersConfiguration.class)
	interface OwnConvertersClient {

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name);

	}

	@FeignClient(name = "incident", url = URL, configuration = IncidentCodecConfiguration.class)
	interface IncidentClient {

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name);

	}

	/**
	 * Counts how often converter customizers run, that is how often converters are built.
	 */
	static final class Builds {

		final AtomicInteger application = new AtomicInteger();

		final AtomicInteger shouting = new AtomicInteger();

	}

	/** A client configuration that declares a customizer of its own. */
	static class ShoutingConfiguration {

		@Bean
		HttpMessageConverterCustomizer shoutingCustomizer(Builds builds) {
			return (converters) -> {
				builds.shouting.incrementAndGet();
				converters.add(0, new ShoutConverter());
			};
		}

	}

	/**
	 * A client configuration that declares its own converters bean: upstream's, with the
	 * defaults.
	 */
	static class OwnConvertersConfiguration {

		@Bean
		FeignHttpMessageConverters ownConverters(ObjectProvider<ClientHttpMessageConvertersCustomizer> customizers,
				ObjectProvider<HttpMessageConverterCustomizer> feignCustomizers) {
			return new FeignHttpMessageConverters(customizers, feignCustomizers);
		}

	}

	/**
	 * Incident 1 on OpenFeign 5: a decoder whose converters provider builds a new
	 * {@link FeignHttpMessageConverters} on every call.
	 */
	static class IncidentCodecConfiguration {

		/** How many times the incident's provider was asked for converters. */
		static final AtomicInteger getObjectCalls = new AtomicInteger();

		@Bean
		Decoder feignDecoder(ObjectProvider<ClientHttpMessageConvertersCustomizer> customizers,
				ObjectProvider<HttpMessageConverterCustomizer> feignCustomizers) {
			return new OptionalDecoder(new ResponseEntityDecoder(new SpringDecoder(new ObjectProvider<>() {

				@Override
				public FeignHttpMessageConverters getObject() {
					getObjectCalls.incrementAndGet();
					return new FeignHttpMessageConverters(customizers, feignCustomizers);
				}

			})));
		}

	}

	/**
	 * A text body read upper-cased.
	 *
	 * @param text the text
	 */
	record Shout(String text) {
	}

	/** Reads {@code text/plain} into a {@link Shout}. */
	static final class ShoutConverter extends AbstractHttpMessageConverter<Shout> {

		ShoutConverter() {
			super(MediaType.TEXT_PLAIN);
		}

		@Override
		protected boolean supports(Class<?> type) {
			return Shout.class == type;
		}

		@Override
		protected Shout readInternal(Class<? extends Shout> type, HttpInputMessage input) throws IOException {
			return new Shout(StreamUtils.copyToString(input.getBody(), StandardCharsets.UTF_8).toUpperCase());
		}

		@Override
		protected void writeInternal(Shout shout, HttpOutputMessage output) {
			throw new UnsupportedOperationException();
		}

	}

	/** An XML document, read with JAXB. */
	@XmlRootElement(name = "note")
	@XmlAccessorType(XmlAccessType.FIELD)
	public static class Note {

		String text;

		String text() {
			return this.text;
		}

	}

}
