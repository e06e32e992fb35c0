package dev.safedefaults.sample.orders;

import java.util.List;

import dev.safedefaults.sample.habits.LegacyHabits;
import dev.safedefaults.sample.pricing.HandBuiltRestClientPricing;
import dev.safedefaults.sample.pricing.Price;
import dev.safedefaults.sample.pricing.PricingClient;
import dev.safedefaults.sample.pricing.RestClientPricing;
import dev.safedefaults.sample.rules.PricingRule;
import dev.safedefaults.sample.rules.PricingRules;
import feign.FeignException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClientException;

/**
 * {@code GET /api/orders/{id}}: the incidents' service per request — three INFO lines,
 * the service's configuration parsed, one UPDATE and one SELECT through MyBatis, one call
 * to a downstream service, a small JSON answer. The call goes through the OpenFeign
 * client or, with {@code client=http-service}, through Boot's {@code RestClient} (the
 * HTTP service group by default, a client built per request in the {@code naive}
 * profile), or, with {@code client=hand-built}, through a {@code RestClient} the
 * application built itself with {@code RestClient.builder()}; the default is
 * {@code sample.pricing.client}. With {@code fail=true} the downstream call fails, an
 * ERROR is logged with the exception and the answer is 502 (an error storm).
 * {@code delay=ms} (at most {@value #MAX_DELAY_MILLIS}) waits that long before touching
 * the database: a request in flight when the app is told to stop.
 */
@RestController
class OrderController {

	private static final Log logger = LogFactory.getLog(OrderController.class);

	static final long MAX_DELAY_MILLIS = 10_000;

	static final String FEIGN = "feign";

	static final String HTTP_SERVICE = "http-service";

	static final String HAND_BUILT = "hand-built";

	private final OrderMapper orders;

	private final PricingClient pricing;

	private final RestClientPricing restClientPricing;

	private final HandBuiltRestClientPricing handBuiltPricing;

	private final PricingRules rules;

	private final LegacyHabits habits;

	OrderController(OrderMapper orders, PricingClient pricing, RestClientPricing restClientPricing,
			HandBuiltRestClientPricing handBuiltPricing, PricingRules rules, LegacyHabits habits) {
		this.orders = orders;
		this.pricing = pricing;
		this.restClientPricing = restClientPricing;
		this.handBuiltPricing = handBuiltPricing;
		this.rules = rules;
		this.habits = habits;
	}

	@GetMapping("/api/orders/{id}")
	ResponseEntity<OrderView> order(@PathVariable long id,
			@RequestParam(name = "channel", defaultValue = "web") String channel,
			@RequestParam(name = "fail", defaultValue = "false") boolean fail,
			@RequestParam(name = "delay", defaultValue = "0") long delayMillis,
			@RequestParam(name = "client", defaultValue = "${sample.pricing.client}") String client)
			throws InterruptedException {
		if (delayMillis < 0 || delayMillis > MAX_DELAY_MILLIS) {
			return ResponseEntity.badRequest().build();
		}
		boolean httpService = HTTP_SERVICE.equals(client);
		boolean handBuilt = HAND_BUILT.equals(client);
		if (!httpService && !handBuilt && !FEIGN.equals(client)) {
			return ResponseEntity.badRequest().build();
		}
		logger.info("Loading order " + id + " for channel " + escaped(channel));
		if (delayMillis > 0) {
			Thread.sleep(delayMillis);
		}
		this.habits.beforeRequest(id, channel);
		List<PricingRule> rules = this.rules.current().rules();
		this.orders.touch(id);
		Order order = this.orders.find(id);
		if (order == null) {
			logger.info("Order " + id + " not found");
			return ResponseEntity.notFound().build();
		}
		Price price;
		try {
			// fail=true makes the downstream answer 500, as services do in an error
			// storm.
			price = httpService ? this.restClientPricing.price(id, fail)
					: handBuilt ? this.handBuiltPricing.price(id, fail) : this.pricing.price(id, fail);
		}
		catch (FeignException | RestClientException ex) {
			logger.error("Pricing failed for order " + id, ex);
			return ResponseEntity.status(HttpStatus.BAD_GATEWAY).build();
		}
		PricingRule rule = rules.get((int) (id % rules.size()));
		logger.info("Order " + id + " priced at " + price.amount() + " with rule " + rule.name());
		OrderView view = new OrderView(order.id(), order.customer(), order.amount(), order.status(), order.views(),
				price.amount(), rule.name());
		logger.info("Order " + id + " answered");
		return ResponseEntity.ok(view);
	}

	/**
	 * Request input as it may be logged: on one line, unambiguous. A backslash, CR, LF
	 * and tab become a backslash followed by a backslash, {@code r}, {@code n} or
	 * {@code t}; every other control character and the Unicode line and paragraph
	 * separators a backslash, {@code u} and four hex digits. A CR/LF in a parameter would
	 * otherwise write a line of the client's choosing into the log.
	 */
	static String escaped(String input) {
		StringBuilder escaped = new StringBuilder(input.length());
		for (int i = 0; i < input.length(); i++) {
			char c = input.charAt(i);
			switch (c) {
				case '\\' -> escaped.append("\\\\");
				case '\r' -> escaped.append("\\r");
				case '\n' -> escaped.append("\\n");
				case '\t' -> escaped.append("\\t");
				default -> {
					if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
						escaped.append(String.format("\\u%04x", (int) c));
					}
					else {
						escaped.append(c);
					}
				}
			}
		}
		return escaped.toString();
	}

}
