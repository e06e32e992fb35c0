package dev.safedefaults.stuckrequests.reactive;

import dev.safedefaults.check.FindingType;
import dev.safedefaults.stuckrequests.StuckRequestsFindings;

/**
 * The variants of {@code stuck-requests.waiting} for WebFlux exchanges. Args: the number
 * of exchanges with its noun, the threshold, what they wait on, the endpoints and ages,
 * then the verb for that number ({@code waits} or {@code wait}).
 */
final class StuckExchangeFindings {

	private StuckExchangeFindings() {
	}

	/** Waiting for the response of an outbound call joined to the exchange. */
	static final FindingType HTTP_RESPONSE = StuckRequestsFindings.STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %5$s for an HTTP response from %3$s, at %4$s. A reactive request holds "
					+ "no thread while it waits, but its client waits, and a WebClient call without a response "
					+ "timeout waits for ever: Reactor Netty sets none by default.",
			"Give the call a bound: build the WebClient from Boot's WebClient.Builder bean, which gets the starter's "
					+ "timeouts (spring.http.clients.read-timeout), or set Reactor Netty's responseTimeout on its "
					+ "HttpClient; and bound the handler's publisher (.timeout(Duration)).");

	/** Nothing the watch can join to the exchange. */
	static final FindingType NOT_JOINED = StuckRequestsFindings.STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %5$s on %3$s, at %4$s. A reactive request holds no thread while it waits, "
					+ "so no stack says what it waits on; the watch joins to an exchange only the calls of a "
					+ "WebClient built from Boot's WebClient.Builder made in the exchange's Reactor context. Not "
					+ "joined, and not named here: a WebClient.create() or WebClient.builder() client, a call "
					+ "whose publisher lost the context, a database or message client, a Sink or a "
					+ "CompletableFuture completed elsewhere.",
			"Bound the handler's publisher (.timeout(Duration)) and each client it calls (a response timeout); build "
					+ "WebClients from Boot's WebClient.Builder bean, which gets the starter's timeouts and whose "
					+ "calls this finding then names with their host and port.");

}
