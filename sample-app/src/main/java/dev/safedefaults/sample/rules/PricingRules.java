package dev.safedefaults.sample.rules;

/**
 * The service's pricing rules, held as JSON text (as a config center delivers them) and
 * parsed into a {@link PricingRuleSet} on each request. How the parse is paid for differs
 * by profile: the starter's cache (default), every time ({@code naive}), a hand-written
 * cache ({@code tuned}).
 */
public interface PricingRules {

	/**
	 * The current rules.
	 * @return the rules
	 */
	PricingRuleSet current();

}
