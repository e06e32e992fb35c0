package dev.safedefaults.stuckrequests.reactive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * One WebFlux exchange in flight: when it began, its method, the exchange's attributes
 * (where WebFlux puts the handler's pattern once it is chosen; a concurrent map, read by
 * the watch's thread) and the outbound calls made in its Reactor context. Carried in that
 * context, so that a {@code WebClient} filter can note its calls.
 */
final class InFlightExchange {

	private final long startNanos;

	private final String method;

	private final Map<String, Object> attributes;

	private final Queue<OutboundCall> calls = new ConcurrentLinkedQueue<>();

	InFlightExchange(long startNanos, String method, Map<String, Object> attributes) {
		this.startNanos = startNanos;
		this.method = method;
		this.attributes = attributes;
	}

	long startNanos() {
		return this.startNanos;
	}

	/**
	 * The method and the handler's pattern ({@code GET /prices/{id}}), never the path.
	 * @return the endpoint
	 */
	String endpoint() {
		Object pattern = this.attributes.get(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
		String text = (pattern instanceof PathPattern path) ? path.getPatternString()
				: (pattern != null) ? pattern.toString() : "(no handler chosen yet)";
		return this.method + " " + text;
	}

	/**
	 * Notes an outbound call made in this exchange's context.
	 * @param hostAndPort where it goes
	 * @param client the client that makes it
	 * @return the call, to be ended when its response comes
	 */
	OutboundCall calling(String hostAndPort, String client) {
		OutboundCall call = new OutboundCall(hostAndPort, client, Instant.now());
		this.calls.add(call);
		return call;
	}

	void ended(OutboundCall call) {
		this.calls.remove(call);
	}

	/**
	 * The outbound calls still waiting for their response, the oldest first.
	 * @return the calls
	 */
	List<OutboundCall> waitingCalls() {
		return new ArrayList<>(this.calls);
	}

	/**
	 * An outbound call of the exchange.
	 *
	 * @param hostAndPort host and port only
	 * @param client the client
	 * @param started when it started
	 */
	record OutboundCall(String hostAndPort, String client, Instant started) {
	}

}
