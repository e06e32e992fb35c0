package dev.safedefaults.httpclient.restclient;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A JSON server on loopback, on a free port: {@code GET /greetings/{name}} answers
 * {@code {"firstName":"Hello <name>"}}, {@code POST /echo} sends the body back as JSON.
 */
final class JsonLoopback implements AutoCloseable {

	private final HttpServer server;

	final AtomicInteger requests = new AtomicInteger();

	JsonLoopback() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/greetings/", (exchange) -> {
			String name = exchange.getRequestURI().getPath().substring("/greetings/".length());
			respond(exchange, "{\"firstName\":\"Hello " + name + "\"}");
		});
		this.server.createContext("/echo", (exchange) -> respond(exchange,
				new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	private void respond(HttpExchange exchange, String json) throws IOException {
		this.requests.incrementAndGet();
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/**
	 * What the server sends and the clients read.
	 *
	 * @param firstName a name
	 */
	record Greeting(String firstName) {
	}

}
