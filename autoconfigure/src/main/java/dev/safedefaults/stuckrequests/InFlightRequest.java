package dev.safedefaults.stuckrequests;

import org.jspecify.annotations.Nullable;

/**
 * One servlet request in flight: its thread, when it began and the endpoint it came in
 * on, each noted on the request's own thread while it runs; once examined, what it waits
 * for; and the last HTTP destination its thread asked the JVM's proxy selector about
 * (host and port only). The watch reads these from its own thread and never the servlet
 * request, which the container recycles for another request once this one ends.
 */
public final class InFlightRequest {

	private final Thread thread;

	private final long startNanos;

	private final @Nullable String method;

	private volatile @Nullable String handlerPattern;

	private volatile @Nullable String destination;

	private volatile @Nullable Wait waitingOn;

	InFlightRequest(Thread thread, long startNanos, @Nullable String method) {
		this.thread = thread;
		this.startNanos = startNanos;
		this.method = method;
	}

	Thread thread() {
		return this.thread;
	}

	long startNanos() {
		return this.startNanos;
	}

	/**
	 * The method and the handler's pattern the request came in on, as noted on its own
	 * thread: a pattern ({@code /api/orders/{id}}), never the path, which may carry an id
	 * or a token.
	 * @return the endpoint, empty when unknown
	 */
	String endpoint() {
		if (this.method == null) {
			return "";
		}
		String pattern = this.handlerPattern;
		return this.method + " " + ((pattern != null) ? pattern : "(no handler chosen yet)");
	}

	/**
	 * Notes the handler's pattern Spring MVC chose for the request; called on the
	 * request's thread. The first one is kept: a forward is still the request that came
	 * in.
	 * @param pattern the pattern
	 */
	void handlerChosen(String pattern) {
		if (this.handlerPattern == null) {
			this.handlerPattern = pattern;
		}
	}

	@Nullable String destination() {
		return this.destination;
	}

	void destination(String destination) {
		this.destination = destination;
	}

	/**
	 * What the request waits for, once examined.
	 * @return the wait, {@code null} before the request was examined
	 */
	@Nullable Wait waitingOn() {
		return this.waitingOn;
	}

	/**
	 * Records what the request waits on.
	 * @param wait what it waits on
	 */
	void examined(Wait wait) {
		this.waitingOn = wait;
	}

}
