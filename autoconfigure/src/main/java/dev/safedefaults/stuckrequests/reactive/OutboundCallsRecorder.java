package dev.safedefaults.stuckrequests.reactive;

import java.net.URI;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;

/**
 * A {@code WebClient} filter that notes each call made in an exchange's Reactor context
 * (host and port, and when it started) until its response comes: the join between a stuck
 * exchange and what it waits on. Calls made outside an exchange pass untouched.
 */
final class OutboundCallsRecorder implements ExchangeFilterFunction {

	/** How the finding names the client: Boot's builder is the one this filter is on. */
	static final String CLIENT = "WebClient from Boot's WebClient.Builder";

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		return Mono.deferContextual((context) -> {
			@Nullable InFlightExchange exchange = context.getOrEmpty(InFlightExchange.class)
				.map(InFlightExchange.class::cast)
				.orElse(null);
			if (exchange == null) {
				return next.exchange(request);
			}
			InFlightExchange.OutboundCall call = exchange.calling(hostAndPort(request.url()), CLIENT);
			return next.exchange(request).doFinally((signal) -> exchange.ended(call));
		});
	}

	static String hostAndPort(URI uri) {
		int port = uri.getPort();
		if (port == -1) {
			port = ("https".equalsIgnoreCase(uri.getScheme()) || "wss".equalsIgnoreCase(uri.getScheme())) ? 443 : 80;
		}
		return uri.getHost() + ":" + port;
	}

}
