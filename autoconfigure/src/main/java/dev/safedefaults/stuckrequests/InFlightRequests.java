package dev.safedefaults.stuckrequests;

import java.net.URI;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * The servlet requests in flight, by thread: all the healthy path pays for is one entry
 * put when a request begins and removed when it ends. Belongs to one application context.
 */
final class InFlightRequests {

	private final Map<Thread, InFlightRequest> byThread = new ConcurrentHashMap<>();

	/**
	 * Records a request beginning on the current thread.
	 * @param request the request, read only if it is examined
	 * @return the entry to hand to {@link #ended}, or {@code null} when the thread
	 * already runs a request (a nested dispatch): the outer one is watched
	 */
	@Nullable InFlightRequest began(@Nullable HttpServletRequest request) {
		Thread thread = Thread.currentThread();
		InFlightRequest inFlight = new InFlightRequest(thread, System.nanoTime(), request);
		return (this.byThread.putIfAbsent(thread, inFlight) == null) ? inFlight : null;
	}

	void ended(InFlightRequest request) {
		this.byThread.remove(request.thread(), request);
	}

	/**
	 * Notes the HTTP destination the current thread is about to call, if it runs a
	 * request.
	 * @param uri the URI asked about; only its host and port are kept
	 */
	void calling(URI uri) {
		InFlightRequest request = this.byThread.get(Thread.currentThread());
		String host = uri.getHost();
		if (request != null && host != null) {
			request.destination(host + ":" + port(uri));
		}
	}

	private static int port(URI uri) {
		if (uri.getPort() != -1) {
			return uri.getPort();
		}
		return ("https".equalsIgnoreCase(uri.getScheme()) || "wss".equalsIgnoreCase(uri.getScheme())) ? 443 : 80;
	}

	Collection<InFlightRequest> current() {
		return this.byThread.values();
	}

	int size() {
		return this.byThread.size();
	}

}
