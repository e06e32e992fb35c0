package dev.safedefaults.sample.rules;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.safedefaults.configcache.ParsedConfigCache;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The three ways the sample pays for parsing its configuration.
 */
@Configuration(proxyBeanMethods = false)
class RulesParsing {

	/**
	 * Written plainly: the starter's cache when it is there, else a parse per call. With
	 * {@code sample.rules.pre-parsed=true} the rules are parsed once at startup instead
	 * (the cost floor of configuration parsing, for the cost-of-defaults benchmark).
	 */
	@Bean
	@Profile("!naive & !tuned")
	PricingRules plainPricingRules(RulesText text, ObjectProvider<ParsedConfigCache> cache, JsonMapper jsonMapper,
			@Value("${sample.rules.pre-parsed:false}") boolean preParsed) {
		if (preParsed) {
			PricingRuleSet parsed = jsonMapper.readValue(text.json(), PricingRuleSet.class);
			return () -> parsed;
		}
		ParsedConfigCache parsedConfigCache = cache.getIfAvailable();
		if (parsedConfigCache != null) {
			return () -> parsedConfigCache.parse(text.json(), PricingRuleSet.class);
		}
		return () -> jsonMapper.readValue(text.json(), PricingRuleSet.class);
	}

	/** Incident 4: the configuration JSON parsed again on every request. */
	@Bean
	@Profile("naive")
	PricingRules naivePricingRules(RulesText text, JsonMapper jsonMapper) {
		return () -> jsonMapper.readValue(text.json(), PricingRuleSet.class);
	}

	/** What a careful engineer writes by hand: an unbounded map keyed by the text. */
	@Bean
	@Profile("tuned")
	PricingRules tunedPricingRules(RulesText text, JsonMapper jsonMapper) {
		Map<String, PricingRuleSet> parsed = new ConcurrentHashMap<>();
		return () -> parsed.computeIfAbsent(text.json(), (json) -> jsonMapper.readValue(json, PricingRuleSet.class));
	}

}
