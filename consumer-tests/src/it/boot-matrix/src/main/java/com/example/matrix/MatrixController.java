package com.example.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringBootVersion;
import org.springframework.core.SpringVersion;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Sends JSON through each client kind once the application is up: the Feign client's first calls,
 * 32 at once (OpenFeign 5.0.0 to 5.0.2 built their converters lazily without synchronisation), then
 * one call through a client from Boot's RestClient.Builder and one through the HTTP service group.
 * Every call is bounded (the futures, and the clients' own timeouts).
 */
@RestController
class MatrixController {

	private static final int FIRST_CALLS = 32;

	private final EchoClient feign;

	private final RestClient restClient;

	private final EchoService group;

	MatrixController(EchoClient feign, RestClient.Builder builder, EchoService group,
			org.springframework.core.env.Environment environment) {
		this.feign = feign;
		this.restClient = builder.baseUrl(environment.getRequiredProperty("echo.url")).build();
		this.group = group;
	}

	@GetMapping("/matrix")
	Map<String, Object> run() throws InterruptedException {
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("boot", SpringBootVersion.getVersion());
		result.put("framework", SpringVersion.getVersion());
		result.put("feign", firstFeignCalls());
		result.put("restClient", outcome(() -> this.restClient.post()
			.uri("/echo")
			.body(Map.of("k", "restclient"))
			.retrieve()
			.body(Map.class), Map.of("k", "restclient")));
		result.put("group", outcome(() -> this.group.echo(Map.of("k", "group")), Map.of("k", "group")));
		return result;
	}

	private Map<String, Object> firstFeignCalls() throws InterruptedException {
		ExecutorService pool = Executors.newFixedThreadPool(FIRST_CALLS);
		CountDownLatch gate = new CountDownLatch(1);
		List<Future<String>> calls = new ArrayList<>();
		try {
			for (int i = 0; i < FIRST_CALLS; i++) {
				Map<String, String> body = Map.of("k", "feign-" + i);
				calls.add(pool.submit(() -> {
					gate.await();
					return outcome(() -> this.feign.echo(body), body);
				}));
			}
			gate.countDown();
			int failed = 0;
			List<String> errors = new ArrayList<>();
			for (Future<String> call : calls) {
				String outcome;
				try {
					outcome = call.get(60, TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					outcome = ex.toString();
				}
				if (!"ok".equals(outcome)) {
					failed++;
					if (errors.size() < 3) {
						errors.add(outcome);
					}
				}
			}
			Map<String, Object> feign = new LinkedHashMap<>();
			feign.put("calls", FIRST_CALLS);
			feign.put("failed", failed);
			feign.put("errors", errors);
			return feign;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static String outcome(java.util.function.Supplier<Object> call, Object expected) {
		try {
			Object answer = call.get();
			return expected.equals(answer) ? "ok" : "unexpected answer: " + answer;
		}
		catch (RuntimeException ex) {
			Throwable root = ex;
			while (root.getCause() != null && root.getCause() != root) {
				root = root.getCause();
			}
			return ex.getClass().getName() + ": " + ex.getMessage() + " (root: " + root + ")";
		}
	}

}
