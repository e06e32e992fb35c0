package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;

import com.sun.net.httpserver.HttpServer;

/**
 * A server on loopback that streams {@code GET /stream?chunks=N&every=MS}: the headers at
 * once, then N lines, one every MS milliseconds (chunked), so that the body takes longer
 * in total than a read timeout while no gap between two reads is as long as it.
 */
final class SlowStreamServer implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor = Executors.newFixedThreadPool(4);

	SlowStreamServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/stream", (exchange) -> {
			String[] query = exchange.getRequestURI().getQuery().split("&");
			int chunks = Integer.parseInt(query[0].substring("chunks=".length()));
			long every = Long.parseLong(query[1].substring("every=".length()));
			exchange.getResponseHeaders().add("Content-Type", "text/plain");
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				for (int i = 0; i < chunks; i++) {
					out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
					out.flush();
					// The server's pace is what the test is about: a wait, not a test's
					// sleep.
					LockSupport.parkNanos(Duration.ofMillis(every).toNanos());
				}
			}
			catch (IOException ex) {
				// the client went away (a cut body): nothing to send to
			}
		});
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
