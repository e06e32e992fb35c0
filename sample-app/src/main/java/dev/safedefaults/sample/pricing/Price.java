package dev.safedefaults.sample.pricing;

import java.math.BigDecimal;

/**
 * The downstream service's answer.
 *
 * @param id the order id
 * @param amount the price
 * @param currency its currency
 */
public record Price(long id, BigDecimal amount, String currency) {
}
