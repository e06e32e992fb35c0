package dev.safedefaults.sample.pricing;

/**
 * The downstream call on Boot's {@code RestClient}: through the HTTP service group by
 * default, through a client built per request in the {@code naive} profile. A 5xx answer
 * throws {@code RestClientResponseException}.
 */
public interface RestClientPricing {

	/**
	 * Asks the downstream service for a price.
	 * @param id the order id
	 * @param fail whether the downstream should answer 500
	 * @return the price
	 */
	Price price(long id, boolean fail);

}
