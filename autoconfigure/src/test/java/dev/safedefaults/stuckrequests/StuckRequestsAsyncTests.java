package dev.safedefaults.stuckrequests;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.stuckrequests.hosts.StuckRequestsHostsAutoConfiguration;
import dev.safedefaults.stuckrequests.servlet.StuckRequestsServletAutoConfiguration;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.context.request.async.DeferredResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 50: asynchronous requests on a real embedded Tomcat and Spring MVC, the watch's
 * threshold 1 s. A {@code Callable} whose work waits on a downstream that never answers
 * ({@code RestClient.builder()}) is examined on its executor's thread
 * ({@code CallableWorkRecorder}) and named with the host and port; a
 * {@code DeferredResult} never set is named as an asynchronous request waiting for its
 * result at its endpoint, saying that the thread of its work is not known; each within
 * the threshold plus 10 s. Once they end (the downstream answers, the result is set) the
 * findings clear and no record is left ({@code InFlightRequestsFilter}'s listener); a
 * completed {@code Callable} leaves none either.
 */
class StuckRequestsAsyncTests {

	private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void aCallableOnASilentDownstreamAndADeferredResultNeverSetAreNamedAndLeaveNoRecordOnceTheyEnd() throws Exception {
		try (SilentDownstream silent = new SilentDownstream();
				ConfigurableApplicationContext context = start(silent.url())) {
			String hostAndPort = URI.create(silent.url()).getAuthority();
			InFlightRequests requests = context.getBean(InFlightRequests.class);
			FindingsStore store = context.getBean(FindingsStore.class);
			AsyncController controller = context.getBean(AsyncController.class);
			assertThat(get(context, "/quick/1").join().body()).isEqualTo("quick");
			await("the quick Callable forgotten").atMost(Duration.ofSeconds(10)).until(() -> requests.size() == 0);
			CompletableFuture<HttpResponse<String>> callable = get(context, "/prices/1");
			CompletableFuture<HttpResponse<String>> deferred = get(context, "/orders/1");
			await("both named within the threshold plus 10 s").atMost(Duration.ofSeconds(11))
				.until(() -> store.findings().size() == 2);
			Finding http = finding(store, "HTTP response: ");
			assertThat(http.subject()).startsWith("HTTP response: " + hostAndPort
					+ " (JDK HttpClient via RestClient) at " + AsyncController.class.getName() + ".lambda$");
			assertThat(http.message())
				.startsWith("1 request running longer than 1s waits for an HTTP response from " + hostAndPort
						+ " (JDK HttpClient via RestClient), at " + AsyncController.class.getName())
				.contains("(GET /prices/{id})");
			Finding async = finding(store, "async result: ");
			assertThat(async.subject())
				.isEqualTo("async result: work on a thread the watch cannot see (a DeferredResult, "
						+ "a CompletableFuture or other asynchronous value) at GET /orders/{id}");
			assertThat(async.message())
				.startsWith("1 request running longer than 1s waits for an asynchronous result: "
						+ "work on a thread the watch cannot see (a DeferredResult, a CompletableFuture or other "
						+ "asynchronous value), at GET /orders/{id}. ")
				.contains("the thread that completes a DeferredResult or a CompletableFuture is not known to it");
			assertThat(async.fix()).contains("new DeferredResult<>(millis)", "spring.mvc.async.request-timeout");
			assertThat(context.getBean(StuckRequestsWatch.class).stuck()).isEqualTo(2);
			silent.answerEveryCall();
			controller.pending.forEach((result) -> result.setResult("set"));
			assertThat(deferred.join().body()).isEqualTo("set");
			assertThat(callable.join().statusCode()).isEqualTo(500);
			await("no record left").atMost(Duration.ofSeconds(10)).until(() -> requests.size() == 0);
			await("the findings cleared").atMost(Duration.ofSeconds(10)).until(() -> store.findings().isEmpty());
		}
	}

	private static Finding finding(FindingsStore store, String prefix) {
		return store.findings()
			.stream()
			.filter((finding) -> finding.subject().startsWith(prefix))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no finding " + prefix + " in " + store.findings()));
	}

	private static ConfigurableApplicationContext start(String downstream) {
		return new SpringApplicationBuilder(AsyncApplication.class).web(WebApplicationType.SERVLET)
			.properties("server.port=0", "server.shutdown=immediate", "spring.main.banner-mode=off",
					"spring.mvc.async.request-timeout=5m", "safe-defaults.checks.enabled=false",
					"safe-defaults.stuck-requests.threshold=1s", "downstream=" + downstream)
			.run();
	}

	private static CompletableFuture<HttpResponse<String>> get(ConfigurableApplicationContext context, String path) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.timeout(Duration.ofSeconds(60))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ TomcatServletWebServerAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
			WebMvcAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
			SafeDefaultsAutoConfiguration.class, StuckRequestsAutoConfiguration.class,
			StuckRequestsServletAutoConfiguration.class, StuckRequestsHostsAutoConfiguration.class })
	static class AsyncApplication {

		@Bean
		AsyncController asyncController(org.springframework.core.env.Environment environment) {
			return new AsyncController(environment.getRequiredProperty("downstream"));
		}

	}

	@RestController
	static class AsyncController {

		private final RestClient client;

		final List<DeferredResult<String>> pending = new CopyOnWriteArrayList<>();

		AsyncController(String downstream) {
			// Built by hand, as most services build theirs: no read timeout.
			this.client = RestClient.builder().baseUrl(downstream).build();
		}

		@GetMapping("/prices/{id}")
		Callable<String> price() {
			return () -> this.client.get().uri("/prices/1").retrieve().body(String.class);
		}

		@GetMapping("/orders/{id}")
		DeferredResult<String> order() {
			DeferredResult<String> result = new DeferredResult<>();
			this.pending.add(result);
			return result;
		}

		@GetMapping("/quick/{id}")
		Callable<String> quick() {
			return () -> "quick";
		}

	}

}
