package dev.safedefaults.stuckrequests.servlet;

import java.io.IOException;

import dev.safedefaults.stuckrequests.InFlightRequest;
import dev.safedefaults.stuckrequests.InFlightRequests;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Records each servlet request's thread, start and method for the watch, on the request's
 * own thread, and nothing else: no stack is read on this path. A request whose handler
 * returned without completing it (asynchronous: a {@code Callable}, a
 * {@code DeferredResult}, a {@code CompletableFuture}, a {@code StreamingResponseBody})
 * stays in flight until the container says it completed, failed or timed out; only such a
 * request costs a listener. Registered for the {@code REQUEST} dispatch only: an
 * asynchronous request's later dispatches are the same request.
 */
final class InFlightRequestsFilter implements Filter {

	private final InFlightRequests requests;

	InFlightRequestsFilter(InFlightRequests requests) {
		this.requests = requests;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		InFlightRequest inFlight = this.requests
			.began((request instanceof HttpServletRequest http) ? http.getMethod() : null);
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (inFlight != null) {
				if (request.isAsyncStarted()) {
					wentAsync(request, inFlight);
				}
				else {
					this.requests.ended(inFlight);
				}
			}
		}
	}

	/**
	 * Keeps the request in flight until it ends. The container completes or dispatches an
	 * asynchronous request only once the dispatch that started it has returned to it
	 * ({@code AsyncContext.complete}, {@code dispatch}), so the listener, added before,
	 * sees its end.
	 */
	private void wentAsync(ServletRequest request, InFlightRequest inFlight) {
		this.requests.wentAsync(inFlight);
		try {
			request.getAsyncContext().addListener(new AsyncEnd(this.requests, inFlight));
		}
		catch (IllegalStateException ex) {
			// Completed already: nothing to watch.
			this.requests.asyncEnded(inFlight);
		}
	}

	/** Forgets an asynchronous request once it completed, failed or timed out. */
	private record AsyncEnd(InFlightRequests requests, InFlightRequest inFlight) implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			this.requests.asyncEnded(this.inFlight);
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			this.requests.asyncEnded(this.inFlight);
		}

		@Override
		public void onError(AsyncEvent event) {
			this.requests.asyncEnded(this.inFlight);
		}

		/**
		 * A later dispatch started it again: its listeners are cleared, so listen again.
		 */
		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this);
		}

	}

}
