package dev.safedefaults.sample.habits;

/**
 * Per-request code whose cost depends on how it is written: plainly (the default), or
 * with the incident's habits (profile {@code naive}).
 */
public interface LegacyHabits {

	/**
	 * Runs before each request's work.
	 * @param orderId the order
	 * @param channel the request's channel parameter
	 */
	void beforeRequest(long orderId, String channel);

}
