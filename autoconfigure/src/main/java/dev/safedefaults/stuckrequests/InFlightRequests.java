package dev.safedefaults.stuckrequests;

import java.net.URI;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The servlet requests in flight, by thread: all the healthy path pays for is one entry
 * put when a request begins and removed when it ends. Belongs to one application context.
 */
public final class InFlightRequests {

	private final Map<Thread, InFlightRequest> byThread = new ConcurrentHashMap<>();

	/**
	 * Records a request beginning on the current thread.
	 * @param method its HTTP method, read on its thread, or {@code null} when it is no
	 * HTTP request
	 * @return the entry to hand to {@link #ended}, or {@code null} when the thread
	 * already runs a request (a nested dispatch): the outer one is watched
	 */
	public @Nullable InFlightRequest began(@Nullable String method) {
		Thread thread = Thread.currentThread();
		InFlightRequest inFlight = new InFlightRequest(thread, System.nanoTime(), method);
		return (this.byThread.putIfAbsent(thread, inFlight) == null) ? inFlight : null;
	}

	/**
	 * Notes the handler's pattern chosen for the request the current thread runs, if it
	 * runs one.
	 * @param pattern the pattern, such as {@code /api/orders/{id}}
	 */
	public void handlerChosen(String pattern) {
		InFlightRequest request = this.byThread.get(Thread.currentThread());
		if (request != null) {
			request.handlerChosen(pattern);
		}
	}

	/**
	 * Forgets a request that ended.
	 * @param request what {@link #began} returned
	 */
	public void ended(InFlightRequest request) {
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
