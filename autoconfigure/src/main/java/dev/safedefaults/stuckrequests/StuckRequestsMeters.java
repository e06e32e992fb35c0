package dev.safedefaults.stuckrequests;

import java.util.Map;

/**
 * What the stuck-request watch measures, for its metric.
 */
public interface StuckRequestsMeters {

	/**
	 * Requests (servlet requests, or a reactive application's exchanges) running longer
	 * than the threshold now.
	 * @return their number
	 */
	int stuck();

	/**
	 * Requests the deadline ({@code safe-defaults.stuck-requests.interrupt-after})
	 * interrupted since the start, by the kind of wait they were in.
	 * @return the count by kind ({@code http-response}, {@code pool-connection}, …),
	 * every kind an interrupt may end present; empty when the deadline is off, and on a
	 * reactive application (an exchange has no thread to interrupt)
	 */
	default Map<String, Long> interrupts() {
		return Map.of();
	}

}
