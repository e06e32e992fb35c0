package dev.safedefaults.stuckrequests;

import org.jspecify.annotations.Nullable;

/**
 * One servlet request in flight: its thread and when it began; what it waits for once it
 * has been examined; and the last HTTP destination its thread asked the JVM's proxy
 * selector about (host and port only).
 */
final class InFlightRequest {

	private final Thread thread;

	private final long startNanos;

	private final String endpoint;

	private volatile @Nullable String destination;

	private volatile @Nullable Wait waitingOn;

	InFlightRequest(Thread thread, long startNanos, String endpoint) {
		this.thread = thread;
		this.startNanos = startNanos;
		this.endpoint = endpoint;
	}

	Thread thread() {
		return this.thread;
	}

	long startNanos() {
		return this.startNanos;
	}

	/**
	 * The method and path the request came in on (no query string).
	 * @return the endpoint
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

	void examined(Wait wait) {
		this.waitingOn = wait;
	}

}
