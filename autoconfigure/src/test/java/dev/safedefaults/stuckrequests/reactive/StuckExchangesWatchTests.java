package dev.safedefaults.stuckrequests.reactive;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPatternParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole exchange path without a server: an exchange through the filter whose handler
 * calls a downstream that never answers is named past the threshold with its endpoint
 * and, through a WebClient carrying the recorder (as Boot's builder does), the
 * downstream's host and port; through a WebClient without it (as
 * {@code WebClient.create()} builds), as a wait nothing could be joined to, said plainly;
 * cleared once the exchange ends. Covers {@code InFlightExchangesWebFilter},
 * {@code InFlightExchanges}, {@code InFlightExchange}, {@code OutboundCallsRecorder} and
 * {@code StuckExchangeFindings}.
 */
@Tag("reactive")
class StuckExchangesWatchTests {

	private static final Duration THRESHOLD = Duration.ofSeconds(1);

	private final InFlightExchanges exchanges = new InFlightExchanges();

	private final FindingsStore store = new FindingsStore(List.of());

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private final StuckExchangesWatch watch = new StuckExchangesWatch(this.exchanges, this.store, () -> THRESHOLD,
			this.warnings::add);

	private final InFlightExchangesWebFilter filter = new InFlightExchangesWebFilter(this.exchanges);

	@AfterEach
	void stop() {
		this.watch.stop();
	}

	@Test
	void anExchangeWaitingOnBootsWebClientIsNamedWithItsEndpointAndTheDownstreamsHostAndPort() throws Exception {
		try (SilentDownstream downstream = new SilentDownstream()) {
			WebClient client = WebClient.builder().filter(new OutboundCallsRecorder()).build();
			Disposable exchange = send("/prices/{id}", "/prices/7", client, downstream.url());
			this.watch.start();
			try {
				String hostAndPort = URI.create(downstream.url()).getAuthority();
				await("the stuck exchange named").atMost(THRESHOLD.plusSeconds(10))
					.until(() -> !this.store.findings().isEmpty());
				Finding finding = this.store.findings().get(0);
				assertThat(finding.id()).isEqualTo("stuck-requests.waiting");
				assertThat(finding.subject()).isEqualTo("HTTP response: " + hostAndPort
						+ " (WebClient from Boot's WebClient.Builder) at GET /prices/{id}");
				assertThat(finding.message())
					.startsWith("1 exchange running longer than 1s waits for an HTTP response " + "from " + hostAndPort
							+ " (WebClient from Boot's WebClient.Builder), at GET /prices/{id} "
							+ "(the oldest running for ")
					.contains("; the oldest call started at ");
				assertThat(this.watch.stuck()).isEqualTo(1);
				assertThat(this.warnings).singleElement()
					.satisfies((line) -> assertThat(line)
						.startsWith("safe-defaults: stuck-requests.waiting HTTP response: " + hostAndPort));
			}
			finally {
				exchange.dispose();
			}
			await("the finding cleared").atMost(Duration.ofSeconds(10)).until(() -> this.store.findings().isEmpty());
			assertThat(this.watch.stuck()).isZero();
			assertThat(this.watch.describe())
				.startsWith("no exchange past the threshold now; last: 1 exchange at most");
		}
	}

	@Test
	void anExchangeWaitingOnAWebClientBuiltByHandIsNamedAsNotJoined() throws Exception {
		try (SilentDownstream downstream = new SilentDownstream()) {
			Disposable exchange = send("/quotes", "/quotes", WebClient.create(), downstream.url());
			this.watch.start();
			try {
				await("the stuck exchange named").atMost(THRESHOLD.plusSeconds(10))
					.until(() -> !this.store.findings().isEmpty());
				Finding finding = this.store.findings().get(0);
				assertThat(finding.subject()).isEqualTo("exchange: no outbound call the watch can join at GET /quotes");
				assertThat(finding.message()).contains("a WebClient.create() or WebClient.builder() client");
			}
			finally {
				exchange.dispose();
			}
		}
	}

	@Test
	void aShortExchangeIsForgottenWhenItEnds() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/health"));
		this.filter.filter(exchange, (served) -> reactor.core.publisher.Mono.empty()).block(Duration.ofSeconds(5));
		assertThat(this.exchanges.current()).isEmpty();
	}

	private Disposable send(String pattern, String path, WebClient client, String downstream) {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get(path));
		WebFilterChain handler = (served) -> {
			served.getAttributes()
				.put(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, PathPatternParser.defaultInstance.parse(pattern));
			return client.get().uri(downstream).retrieve().toBodilessEntity().then();
		};
		return this.filter.filter(exchange, handler).subscribe();
	}

}
