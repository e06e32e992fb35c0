package dev.safedefaults.sample.rules;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonCreator;

/**
 * The service's pricing rules, parsed from a JSON array. Immutable, as a value shared by
 * every request must be: the list is copied into an unmodifiable one.
 *
 * @param rules the rules, in configuration order
 */
public record PricingRuleSet(List<PricingRule> rules) {

	public PricingRuleSet {
		rules = List.copyOf(rules);
	}

	@JsonCreator(mode = JsonCreator.Mode.DELEGATING)
	static PricingRuleSet of(List<PricingRule> rules) {
		return new PricingRuleSet(rules);
	}

}
