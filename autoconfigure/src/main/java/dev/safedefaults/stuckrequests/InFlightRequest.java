package dev.safedefaults.stuckrequests;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * One servlet request in flight: its thread and when it began; once examined, what it
 * waits for and the endpoint it came in on; and the last HTTP destination its thread
 * asked the JVM's proxy selector about (host and port only).
 */
final class InFlightRequest {

	/**
	 * Spring MVC's request attribute holding the handler's pattern
	 * ({@code HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE}), named here so that the
	 * watch needs no Spring MVC class.
	 */
	static final String BEST_MATCHING_PATTERN = "org.springframework.web.servlet.HandlerMapping.bestMatchingPattern";

	private final Thread thread;

	private final long startNanos;

	private final @Nullable HttpServletRequest request;

	private volatile @Nullable String destination;

	private volatile @Nullable Wait waitingOn;

	private volatile String endpoint = "";

	InFlightRequest(Thread thread, long startNanos, @Nullable HttpServletRequest request) {
		this.thread = thread;
		this.startNanos = startNanos;
		this.request = request;
	}

	Thread thread() {
		return this.thread;
	}

	long startNanos() {
		return this.startNanos;
	}

	/**
	 * The method and the handler's pattern the request came in on, as read when it was
	 * examined: a pattern ({@code /api/orders/{id}}), never the path, which may carry an
	 * id or a token.
	 * @return the endpoint, empty when unknown
	 */
	String endpoint() {
		return this.endpoint;
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
	 * Records what the request waits on, and reads its endpoint: once, while it runs.
	 * @param wait what it waits on
	 */
	void examined(Wait wait) {
		HttpServletRequest running = this.request;
		if (running != null) {
			Object pattern = running.getAttribute(BEST_MATCHING_PATTERN);
			this.endpoint = running.getMethod() + " "
					+ ((pattern instanceof String handler) ? handler : "(no handler chosen yet)");
		}
		this.waitingOn = wait;
	}

}
