package dev.safedefaults.stuckrequests.reactive;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The WebFlux exchanges in flight: all the healthy path pays is one entry added when an
 * exchange begins and removed when it ends. Belongs to one application context.
 */
final class InFlightExchanges {

	private final Set<InFlightExchange> exchanges = ConcurrentHashMap.newKeySet();

	InFlightExchange began(String method, Map<String, Object> attributes) {
		InFlightExchange exchange = new InFlightExchange(System.nanoTime(), method, attributes);
		this.exchanges.add(exchange);
		return exchange;
	}

	void ended(InFlightExchange exchange) {
		this.exchanges.remove(exchange);
	}

	Collection<InFlightExchange> current() {
		return this.exchanges;
	}

}
