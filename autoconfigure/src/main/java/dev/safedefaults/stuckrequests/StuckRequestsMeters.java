package dev.safedefaults.stuckrequests;

/**
 * What the stuck-request watch measures, for its metric.
 */
public interface StuckRequestsMeters {

	/**
	 * Servlet requests running longer than the threshold now.
	 * @return their number
	 */
	int stuck();

}
