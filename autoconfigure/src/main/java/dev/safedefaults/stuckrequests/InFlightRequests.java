package dev.safedefaults.stuckrequests;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The servlet requests in flight, by thread: all the healthy path pays for is one entry
 * put when a request begins and removed when it ends. An asynchronous request leaves its
 * thread when its handler returns and is kept apart until its response completes; the
 * thread of a {@code Callable} Spring MVC runs for one is noted while it runs. Belongs to
 * one application context.
 */
public final class InFlightRequests {

	private final Map<Thread, InFlightRequest> byThread = new ConcurrentHashMap<>();

	private final Set<InFlightRequest> async = ConcurrentHashMap.newKeySet();

	private final Map<Object, InFlightRequest> queuedCallables = new ConcurrentHashMap<>();

	private final Map<Thread, InFlightRequest> byWorker = new ConcurrentHashMap<>();

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
	 * Forgets a request that ended; called on its thread, as the last thing it does
	 * there: an interrupt the watch caused is cleared.
	 * @param request what {@link #began} returned
	 */
	public void ended(InFlightRequest request) {
		request.leftItsThread();
		this.byThread.remove(request.thread(), request);
	}

	/**
	 * Its handler returned and its response is not complete: the request leaves its
	 * thread, which the container gives to other requests, and is watched until
	 * {@link #asyncEnded}.
	 * @param request the request
	 */
	public void wentAsync(InFlightRequest request) {
		request.leftItsThread();
		request.wentAsync();
		this.async.add(request);
		this.byThread.remove(request.thread(), request);
	}

	/**
	 * An asynchronous request completed, failed or timed out.
	 * @param request the request
	 */
	public void asyncEnded(InFlightRequest request) {
		this.async.remove(request);
		Object task = request.queuedTask();
		if (task != null) {
			this.queuedCallables.remove(task, request);
		}
		Thread worker = request.worker();
		if (worker != null) {
			this.byWorker.remove(worker, request);
		}
	}

	/**
	 * The handler of the request the current thread runs returned a {@code Callable},
	 * about to be submitted to Spring MVC's async executor.
	 * @param task the {@code Callable}
	 */
	public void callableQueued(Object task) {
		InFlightRequest request = this.byThread.get(Thread.currentThread());
		if (request != null) {
			request.callableQueued(task);
			this.queuedCallables.put(task, request);
		}
	}

	/**
	 * A {@code Callable} begins to work on the current thread, for the request that
	 * queued it, if it is watched.
	 * @param task the {@code Callable}
	 */
	public void callableStarted(Object task) {
		InFlightRequest request = this.queuedCallables.remove(task);
		if (request != null) {
			Thread worker = Thread.currentThread();
			request.callableRunning(worker);
			this.byWorker.put(worker, request);
		}
	}

	/** The {@code Callable} that worked on the current thread returned. */
	public void callableReturned() {
		InFlightRequest request = this.byWorker.remove(Thread.currentThread());
		if (request != null) {
			request.callableReturned();
		}
	}

	/**
	 * Notes the HTTP destination the current thread is about to call, if it runs a
	 * request.
	 * @param uri the URI asked about; only its host and port are kept
	 */
	public void calling(URI uri) {
		InFlightRequest request = this.byThread.get(Thread.currentThread());
		if (request == null) {
			request = this.byWorker.get(Thread.currentThread());
		}
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

	/**
	 * The requests in flight, on their threads or asynchronous; called by the watch.
	 * @return each once
	 */
	Collection<InFlightRequest> current() {
		if (this.async.isEmpty()) {
			return this.byThread.values();
		}
		List<InFlightRequest> current = new ArrayList<>(this.async);
		for (InFlightRequest request : this.byThread.values()) {
			if (!request.isAsync()) {
				current.add(request);
			}
		}
		return current;
	}

	int size() {
		return this.byThread.size() + this.async.size();
	}

}
