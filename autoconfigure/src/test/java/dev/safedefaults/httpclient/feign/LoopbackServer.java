package dev.safedefaults.httpclient.feign;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.Filter;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real HTTP server on loopback (an embedded Tomcat on a free port) that the Feign
 * clients under test call. It is a separate application, so that the client side can run
 * in an {@code ApplicationContextRunner} with the server's URL known before it starts.
 */
final class LoopbackServer implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private LoopbackServer(ConfigurableApplicationContext context) {
		this.context = context;
	}

	static LoopbackServer start() {
		return new LoopbackServer(new SpringApplicationBuilder(ServerConfiguration.class).properties(Map.of(
				"server.port", "0", "server.address", "127.0.0.1", "safe-defaults.enabled", "false",
				"spring.main.banner-mode", "off", "spring.jmx.enabled", "false",
				// Spring Security is on the test class path (for the findings' exposure
				// tests): this server stays open.
				"spring.autoconfigure.exclude",
				String.join(",", "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration")))
			.run());
	}

	/**
	 * The server's base URL.
	 * @return {@code http://127.0.0.1:<port>}
	 */
	String url() {
		return "http://127.0.0.1:" + ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	/**
	 * How many requests the server has received.
	 * @return the count
	 */
	int requests() {
		return this.context.getBean(ServerConfiguration.class).requests.get();
	}

	@Override
	public void close() {
		this.context.close();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(GreetingController.class)
	static class ServerConfiguration {

		final AtomicInteger requests = new AtomicInteger();

		@Bean
		Filter countingFilter() {
			return (request, response, chain) -> {
				this.requests.incrementAndGet();
				chain.doFilter(request, response);
			};
		}

	}

	@RestController
	static class GreetingController {

		@GetMapping("/greetings/{name}")
		Greeting greeting(@PathVariable("name") String name) {
			return new Greeting("Hello " + name);
		}

		@GetMapping("/nothing")
		ResponseEntity<Void> nothing() {
			return ResponseEntity.noContent().build();
		}

		@GetMapping(path = "/snake", produces = MediaType.APPLICATION_JSON_VALUE)
		String snake() {
			return "{\"first_name\":\"Ada\"}";
		}

		@PostMapping(path = "/echo", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.TEXT_PLAIN_VALUE)
		String echo(@RequestBody String body) {
			return body;
		}

		@PostMapping(path = "/form", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE,
				produces = MediaType.TEXT_PLAIN_VALUE)
		String form(@RequestParam("firstName") String firstName) {
			return "form:" + firstName;
		}

		@GetMapping(path = "/shout", produces = MediaType.TEXT_PLAIN_VALUE)
		String shout() {
			return "hello";
		}

		@GetMapping(path = "/note", produces = MediaType.APPLICATION_XML_VALUE)
		String note() {
			return "<note><text>from xml</text></note>";
		}

	}

	/**
	 * What the server sends and the clients read.
	 *
	 * @param firstName a name
	 */
	record Greeting(String firstName) {
	}

}
