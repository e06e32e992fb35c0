package dev.safedefaults.runtime.storm;

/**
 * The number of requests the service has completed so far, which the exception-storm
 * detector divides throwables by. With Micrometer, the starter provides one that reads
 * the {@code http.server.requests} timers; a service that handles messages instead can
 * define its own bean.
 */
@FunctionalInterface
public interface RequestCounter {

	/**
	 * The cumulative number of completed requests.
	 * @return the count, or a negative number when it is not known (yet)
	 */
	long completedRequests();

}
