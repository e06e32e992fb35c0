package dev.safedefaults.sample.orders;

import java.math.BigDecimal;

/**
 * What {@code GET /api/orders/{id}} answers.
 *
 * @param id the order id
 * @param customer who ordered
 * @param amount how much
 * @param status where it stands
 * @param views how often it was read
 * @param price the downstream service's price
 * @param rule the pricing rule that applies
 */
public record OrderView(long id, String customer, BigDecimal amount, String status, long views, BigDecimal price,
		String rule) {
}
