package dev.safedefaults.sample.rules;

import java.math.BigDecimal;
import java.util.List;

/**
 * One pricing rule of the service's configuration. Immutable: parsed values are shared.
 *
 * @param name the rule's name
 * @param minAmount the smallest order amount it applies to
 * @param maxAmount the largest
 * @param discountPercent the discount it grants
 * @param regions where it applies
 * @param active whether it is on
 */
public record PricingRule(String name, BigDecimal minAmount, BigDecimal maxAmount, int discountPercent,
		List<String> regions, boolean active) {

	public PricingRule {
		regions = List.copyOf(regions);
	}

}
