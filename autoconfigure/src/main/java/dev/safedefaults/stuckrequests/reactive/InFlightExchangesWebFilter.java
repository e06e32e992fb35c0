package dev.safedefaults.stuckrequests.reactive;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Notes each exchange in flight from the start of the filter chain to the end of its
 * response (completed, failed or cancelled), and puts it in the chain's Reactor context,
 * where {@link OutboundCallsRecorder} finds it. First in the chain.
 */
final class InFlightExchangesWebFilter implements WebFilter, Ordered {

	private final InFlightExchanges exchanges;

	InFlightExchangesWebFilter(InFlightExchanges exchanges) {
		this.exchanges = exchanges;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		InFlightExchange inFlight = this.exchanges.began(exchange.getRequest().getMethod().name(),
				exchange.getAttributes());
		return chain.filter(exchange)
			.contextWrite((context) -> context.put(InFlightExchange.class, inFlight))
			.doFinally((signal) -> this.exchanges.ended(inFlight));
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
