package dev.safedefaults.sample.orders;

import java.math.BigDecimal;

/**
 * An order as the API returns it.
 *
 * @param id the order id
 * @param customer who ordered
 * @param amount how much
 * @param status where it stands
 * @param views how often it was read
 */
public record Order(long id, String customer, BigDecimal amount, String status, long views) {
}
