package dev.safedefaults.httpclient.restclient;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.httpclient.restclient.JsonLoopback.Greeting;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code restclient.per-request-build} in a running application serving requests: a
 * controller that asks for Boot's builder per request is named; one that built its client
 * once is silent.
 */
@OnEveryJdk
class RestClientPerRequestBuildTests {

	private static final int REQUESTS = 25;

	private static JsonLoopback downstream;

	@BeforeAll
	static void startDownstream() throws IOException {
		downstream = new JsonLoopback();
	}

	@AfterAll
	static void stopDownstream() {
		downstream.close();
	}

	@Test
	void aClientBuiltPerRequestIsReportedWithItsCaller() throws Exception {
		try (ConfigurableApplicationContext context = start(PerRequestApplication.class)) {
			serve(context, REQUESTS);
			assertThat(findings(context)).singleElement().satisfies((finding) -> {
				assertThat(finding.subject()).isEqualTo("Boot's RestClient.Builder");
				assertThat(finding.message()).contains("handed out " + RestClientBuilds.FIRST_REPORT + " times")
					.contains(PerRequestController.class.getName() + ".greeting");
			});
		}
	}

	@Test
	void aClientBuiltOnceIsNotReported() throws Exception {
		try (ConfigurableApplicationContext context = start(OnceApplication.class)) {
			serve(context, REQUESTS);
			assertThat(findings(context)).isEmpty();
			assertThat(context.getBean(RestClientBuilds.class).handedOutAfterReady()).isZero();
			assertThat(context.getBean(RestClientBuilds.class).builtAfterReady()).isZero();
		}
	}

	private static void serve(ConfigurableApplicationContext context, int requests) throws Exception {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		HttpClient client = HttpClient.newHttpClient();
		for (int i = 0; i < requests; i++) {
			HttpResponse<String> response = client.send(
					HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/greeting")).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.body()).isEqualTo("Hello Ada");
		}
	}

	private static List<Finding> findings(ConfigurableApplicationContext context) {
		return context.getBean(FindingsStore.class)
			.findings()
			.stream()
			.filter((finding) -> finding.id().equals("restclient.per-request-build"))
			.toList();
	}

	private static ConfigurableApplicationContext start(Class<?> application) {
		return new SpringApplicationBuilder(application).properties(Map.of("server.port", "0", "server.address",
				"127.0.0.1", "downstream.url", downstream.url(), "spring.main.banner-mode", "off", "spring.jmx.enabled",
				"false", "spring.autoconfigure.exclude",
				String.join(",", "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
						"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration")))
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(PerRequestController.class)
	static class PerRequestApplication {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(OnceController.class)
	static class OnceApplication {

	}

	/**
	 * The trap: a builder asked for, and a client built, on every request.
	 */
	@RestController
	static class PerRequestController {

		private final ObjectProvider<RestClient.Builder> builders;

		private final String url;

		PerRequestController(ObjectProvider<RestClient.Builder> builders, @Value("${downstream.url}") String url) {
			this.builders = builders;
			this.url = url;
		}

		@GetMapping("/greeting")
		String greeting() {
			RestClient client = this.builders.getObject().baseUrl(this.url).build();
			return client.get().uri("/greetings/Ada").retrieve().body(Greeting.class).firstName();
		}

	}

	/**
	 * The fix: the client built once, in the constructor.
	 */
	@RestController
	static class OnceController {

		private final RestClient client;

		OnceController(RestClient.Builder builder, @Value("${downstream.url}") String url) {
			this.client = builder.baseUrl(url).build();
		}

		@GetMapping("/greeting")
		String greeting() {
			return this.client.get().uri("/greetings/Ada").retrieve().body(Greeting.class).firstName();
		}

	}

}
