package dev.safedefaults.runtime.storm.actuate;

import dev.safedefaults.runtime.storm.RequestCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Counts completed requests from Micrometer's {@code http.server.requests} timers (every
 * URI, method and status together), so that the exception-storm detector can report
 * throwables per request.
 */
public class HttpServerRequestCounter implements RequestCounter {

	/** The timer Spring MVC and WebFlux record every server request in. */
	public static final String HTTP_SERVER_REQUESTS = "http.server.requests";

	private final ObjectProvider<MeterRegistry> registries;

	private volatile @Nullable MeterRegistry registry;

	/**
	 * Creates the counter.
	 * @param registries the meter registry, looked up on first use
	 */
	public HttpServerRequestCounter(ObjectProvider<MeterRegistry> registries) {
		this.registries = registries;
	}

	@Override
	public long completedRequests() {
		MeterRegistry meters = this.registry;
		if (meters == null) {
			meters = this.registries.getIfUnique();
			if (meters == null) {
				return -1;
			}
			this.registry = meters;
		}
		long count = 0;
		boolean found = false;
		for (Timer timer : meters.find(HTTP_SERVER_REQUESTS).timers()) {
			count += timer.count();
			found = true;
		}
		return found ? count : -1;
	}

}
