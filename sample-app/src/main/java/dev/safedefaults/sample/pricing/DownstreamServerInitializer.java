package dev.safedefaults.sample.pricing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The downstream pricing service the sample calls through Feign: a tiny HTTP server in
 * the same process, on its own loopback port, answering a small JSON body in microseconds
 * ({@code ?fail=true} answers 500). Sets {@code sample.downstream.url} unless given.
 */
public class DownstreamServerInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		if (context.getEnvironment().containsProperty("sample.downstream.url")) {
			return;
		}
		// Without TCP_NODELAY the JDK's server sends the body behind the headers only
		// once the
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
			startDaemon(server);
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("downstreamPricing",
						Map.of("sample.downstream.url", "http://127.0.0.1:" + server.getAddress().getPort())));
			DownstreamServer downstream = new DownstreamServer(server, executor);
			// Stopped as a bean, after the web server has drained its requests (which
			// call it): a
			// ContextClosedEvent comes before that. A failed start destroys no bean it
			// has not
			// created and publishes no ContextClosedEvent: the failure event stops it
			// then (a
			// typed listener, not a lambda: Spring cannot see a lambda's event type, so
			// it would
			// call it for every event and swallow a ClassCastException each time).
			if (context instanceof GenericApplicationContext generic) {
				generic.registerBean("downstreamPricingServer", DownstreamServer.class, () -> downstream);
			}
			else {
				context.addApplicationListener(new ApplicationListener<ContextClosedEvent>() {
					@Override
					public void onApplicationEvent(ContextClosedEvent event) {
						downstream.destroy();
					}
				});
			}
			context.addApplicationListener(new ApplicationListener<ApplicationFailedEvent>() {
				@Override
				public void onApplicationEvent(ApplicationFailedEvent event) {
					downstream.destroy();
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Starts the server from a daemon thread: the JDK's server creates its dispatcher
	 * thread ({@code HTTP-Dispatcher}) in {@code start()}, and a new thread inherits the
	 * daemon flag of the thread that creates it. A non-daemon dispatcher kept the JVM
	 * alive after a failed start.
	 */
	private static void startDaemon(HttpServer server) {
		RuntimeException[] failure = new RuntimeException[1];
		Thread starter = new Thread(() -> {
			try {
				server.start();
			}
			catch (RuntimeException ex) {
				failure[0] = ex;
			}
		}, "downstream-pricing-start");
		starter.setDaemon(true);
		starter.start();
		try {
			starter.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting the downstream server", ex);
		}
		if (failure[0] != null) {
			throw failure[0];
		}
	}

	/**
	 * The running server, stopped once.
	 */
	static final class DownstreamServer implements DisposableBean {

		private final HttpServer server;

		private final ExecutorService executor;

		private final AtomicBoolean stopped = new AtomicBoolean();

		DownstreamServer(HttpServer server, ExecutorService executor) {
			this.server = server;
			this.executor = executor;
		}

		@Override
		public void destroy() {
			if (this.stopped.compareAndSet(false, true)) {
				this.server.stop(0);
				this.executor.shutdownNow();
			}
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
