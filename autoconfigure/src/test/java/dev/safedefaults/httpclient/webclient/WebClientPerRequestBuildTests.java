package dev.safedefaults.httpclient.webclient;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.PerRequestBuilds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code webclient.per-request-build} in a running application serving requests, with
 * every auto-configuration of the class path (Boot's codecs and WebClient ones included):
 * a controller that asks for Boot's {@code WebClient.Builder} and builds a client per
 * request is named, with the codecs made again; one that built its client once is silent.
 */
@Tag("reactive")
class WebClientPerRequestBuildTests {

	private static final int REQUESTS = 25;

	private static HttpServer downstream;

	@BeforeAll
	static void startDownstream() throws IOException {
		downstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		downstream.createContext("/greetings/Ada", (exchange) -> {
			byte[] body = "{\"firstName\":\"Hello Ada\"}".getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		downstream.start();
	}

	@AfterAll
	static void stopDownstream() {
		downstream.stop(0);
	}

	@Test
	void aWebClientBuiltOnceIsSilentAndOneBuiltPerRequestIsReportedWithItsCallerAndItsCodecs() throws Exception {
		try (ConfigurableApplicationContext context = start()) {
			serve(context, "/once", REQUESTS);
			assertThat(findings(context)).isEmpty();
			assertThat(context.getBean(WebClientBuilds.class).handedOutAfterReady()).isZero();
			assertThat(context.getBean(WebClientBuilds.class).builtAfterReady()).isZero();
			serve(context, "/per-request", REQUESTS);
			assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.subject()).isEqualTo("Boot's WebClient.Builder");
				assertThat(finding.message())
					.contains("handed out " + PerRequestBuilds.FIRST_REPORT + " times and "
							+ (PerRequestBuilds.FIRST_REPORT - 1) + " clients were built from it, each running every "
							+ "CodecCustomizer again")
					.contains(Controllers.class.getName() + ".perRequest");
			});
		}
	}

	private static void serve(ConfigurableApplicationContext context, String path, int requests) throws Exception {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpClient client = HttpClient.newHttpClient();
		for (int i = 0; i < requests; i++) {
			HttpResponse<String> response = client
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
					.timeout(Duration.ofSeconds(10))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.body()).isEqualTo("Hello Ada");
		}
	}

	private static List<Finding> findings(ConfigurableApplicationContext context) {
		return context.getBean(FindingsStore.class)
			.findings()
			.stream()
			.filter((finding) -> finding.id().equals("webclient.per-request-build"))
			.toList();
	}

	private static ConfigurableApplicationContext start() {
		return new SpringApplicationBuilder(Application.class).properties(Map.of("server.port", "0", "server.address",
				"127.0.0.1", "downstream.url", "http://127.0.0.1:" + downstream.getAddress().getPort(),
				"spring.main.banner-mode", "off", "spring.jmx.enabled", "false", "spring.autoconfigure.exclude",
				String.join(",", "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration")))
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(Controllers.class)
	static class Application {

	}

	/**
	 * The trap, a builder asked for and a client built on every request, and the fix, a
	 * client built once in the constructor.
	 */
	@RestController
	static class Controllers {

		private final ObjectProvider<WebClient.Builder> builders;

		private final String url;

		private final WebClient once;

		Controllers(ObjectProvider<WebClient.Builder> builders, @Value("${downstream.url}") String url) {
			this.builders = builders;
			this.url = url;
			this.once = builders.getObject().baseUrl(url).build();
		}

		@GetMapping("/per-request")
		String perRequest() {
			WebClient client = this.builders.getObject().baseUrl(this.url).build();
			return greet(client);
		}

		@GetMapping("/once")
		String once() {
			return greet(this.once);
		}

	}

	static String greet(WebClient client) {
		Greeting greeting = client.get()
			.uri("/greetings/Ada")
			.retrieve()
			.bodyToMono(Greeting.class)
			.block(Duration.ofSeconds(5));
		return (greeting != null) ? greeting.firstName() : "none";
	}

	/**
	 * What the downstream sends.
	 *
	 * @param firstName a name
	 */
	record Greeting(String firstName) {
	}

}
