package dev.safedefaults.logging.log4j2;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the pattern-layout converters that need the caller's location, also where they
 * are nested inside another converter ({@code %highlight{%L}}, Boot's {@code %clr{…}},
 * {@code %maxLen{%l}{20}}), which Log4j's own {@code PatternLayout.requiresLocation()}
 * misses (incident 3).
 */
final class LocationConverters {

	private static final Set<String> LOCATION_CONVERTERS = Set.of("C", "class", "F", "file", "l", "location", "L",
			"line", "M", "method");

	/**
	 * {@code %%} is a literal percent; otherwise {@code %}, format modifiers, the
	 * converter's name.
	 */
	private static final Pattern CONVERTER = Pattern.compile("%%|%[-.\\d]*([A-Za-z]+)");

	private LocationConverters() {
	}

	/**
	 * Returns the location converters a pattern uses, as written ({@code %L}).
	 * @param pattern a PatternLayout pattern
	 * @return the converters, empty when none
	 */
	static Set<String> find(String pattern) {
		Set<String> found = new LinkedHashSet<>();
		if (pattern == null) {
			return found;
		}
		Matcher matcher = CONVERTER.matcher(pattern);
		while (matcher.find()) {
			String name = matcher.group(1);
			if (name != null && LOCATION_CONVERTERS.contains(name)) {
				found.add("%" + name);
			}
		}
		return found;
	}

}
