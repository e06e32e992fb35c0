package dev.safedefaults.configcache;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.INFO;

/**
 * Every finding of the config cache (incident 4), declared once.
 */
public final class ConfigCacheFindings implements FindingDeclarations {

	/** Args: what makes the type mutable. */
	static final FindingType MUTABLE_TYPE = FindingType.declare("config-cache.mutable-type", INFO,
			"ParsedConfigCache hands one parsed object to every caller, and this target type can be changed "
					+ "(setters, public non-final fields, a collection, map, array or Jackson tree): a change made by "
					+ "one caller is seen by all.",
			"ParsedConfigCache hands one parsed value of this type to every caller, and it can be changed (%1$s): "
					+ "a change made by one caller is seen by all of them.",
			"Make the type immutable (a record or final fields; unmodifiable collections, such as List.copyOf in a "
					+ "compact constructor), or copy the value before changing it.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(MUTABLE_TYPE);
	}

}
