package dev.safedefaults.sample.pricing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;

/**
 * The downstream pricing service the sample calls through Feign: a tiny HTTP server in the
 * same process, on its own loopback port, answering a small JSON body in microseconds
 * ({@code ?fail=true} answers 500). Sets {@code sample.downstream.url} unless given.
 */
public class DownstreamServerInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		if (context.getEnvironment().containsProperty("sample.downstream.url")) {
			return;
		}
		// Without TCP_NODELAY the JDK's server sends the body behind the headers only once the
		// client's delayed ACK arrives: 40 ms per call instead of microseconds.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
			ExecutorService executor = Executors.newFixedThreadPool(8, (runnable) -> {
				Thread thread = new Thread(runnable, "downstream-pricing");
				thread.setDaemon(true);
				return thread;
			});
			server.setExecutor(executor);
			server.createContext("/prices/", DownstreamServerInitializer::price);
			server.start();
			context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("downstreamPricing",
					Map.of("sample.downstream.url", "http://127.0.0.1:" + server.getAddress().getPort())));
			// A typed listener, not a lambda: Spring cannot see a lambda's event type, so it would
			// call it for every event (one per request) and swallow a ClassCastException each time.
			context.addApplicationListener(new ApplicationListener<ContextClosedEvent>() {
				@Override
				public void onApplicationEvent(ContextClosedEvent event) {
					server.stop(0);
					executor.shutdownNow();
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void price(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		String id = path.substring(path.lastIndexOf('/') + 1);
		String query = exchange.getRequestURI().getQuery();
		boolean fail = query != null && query.contains("fail=true");
		byte[] body = (fail ? "{\"error\":\"pricing unavailable\"}"
				: "{\"id\":" + id + ",\"amount\":" + (10 + id.length()) + ".50,\"currency\":\"EUR\"}")
			.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(fail ? 500 : 200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

}
