package dev.safedefaults.stuckrequests;

import java.util.Locale;

import dev.safedefaults.check.FindingType;

/**
 * What a stuck request waits on, each with its finding's variant (its message and fix).
 */
public enum WaitKind {

	HTTP_RESPONSE("HTTP response", StuckRequestsFindings.HTTP_RESPONSE),

	JDBC_READ("JDBC read", StuckRequestsFindings.JDBC_READ),

	POOL_CONNECTION("pool connection", StuckRequestsFindings.POOL_CONNECTION),

	PRINT_STREAM("print stream", StuckRequestsFindings.PRINT_STREAM),

	LOGGING_QUEUE("logging queue", StuckRequestsFindings.LOGGING_QUEUE),

	LOCK("lock", StuckRequestsFindings.LOCK),

	SLEEP("sleep", StuckRequestsFindings.SLEEP),

	RESPONSE_WRITE("response to a slow client", StuckRequestsFindings.RESPONSE_WRITE),

	REQUEST_READ("request from a slow client", StuckRequestsFindings.REQUEST_READ),

	ASYNC_RESULT("async result", StuckRequestsFindings.ASYNC_RESULT),

	OTHER("other", StuckRequestsFindings.OTHER);

	private final String label;

	private final FindingType finding;

	WaitKind(String label, FindingType finding) {
		this.label = label;
		this.finding = finding;
	}

	/**
	 * A short name for the log line and the endpoint.
	 * @return the label
	 */
	public String label() {
		return this.label;
	}

	/**
	 * The kind as a metric's tag.
	 * @return for example {@code http-response}
	 */
	String tag() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	FindingType finding() {
		return this.finding;
	}

}
