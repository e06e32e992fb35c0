package dev.safedefaults.stuckrequests;

import java.util.Map;

/**
 * What the stuck-request watch measures, for its metric.
 */
public interface StuckRequestsMeters {

	/**
	 * Servlet requests running longer than the threshold now.
	 * @return their number
	 */
	int stuck();

	/**
	 * Requests the deadline ({@code safe-defaults.stuck-requests.interrupt-after})
	 * interrupted since the start, by the kind of wait they were in.
	 * @return the count by kind ({@code http-response}, {@code pool-connection}, …),
	 * every kind an interrupt may end present; empty when the deadline is off
	 */
	Map<String, Long> interrupts();

}
