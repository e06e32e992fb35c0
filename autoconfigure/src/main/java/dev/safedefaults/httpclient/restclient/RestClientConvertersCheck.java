package dev.safedefaults.httpclient.restclient;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.httpclient.FrameworkClientBuilders;
import dev.safedefaults.httpclient.restclient.RestClientBuilds.GroupConverters;

/**
 * At startup, after every HTTP service group's client was built: a group whose interfaces
 * exchange objects but whose converters have no JSON
 * ({@code restclient.json-converter-lost}), a group carrying the default converters
 * ({@code restclient.default-converters}), and the whole feature off (the same INFO,
 * once).
 */
final class RestClientConvertersCheck implements Check {

	private final RestClientBuilds builds;

	private final boolean enabled;

	RestClientConvertersCheck(RestClientBuilds builds, boolean enabled) {
		this.builds = builds;
		this.enabled = enabled;
	}

	@Override
	public List<Finding> run() {
		List<Finding> findings = new ArrayList<>();
		if (!this.enabled) {
			findings.add(RestClientFindings.DEFAULTS_FOR_EVERY_CLIENT.raise("Boot's RestClient.Builder"));
		}
		for (GroupConverters group : this.builds.groups()) {
			if (group.exchangesObjects() && !group.json()) {
				findings.add(RestClientFindings.JSON_CONVERTER_LOST.raise(subject(group.name())));
			}
			if (this.enabled && !group.defaults().isEmpty()) {
				findings.add(RestClientFindings.DEFAULT_CONVERTERS.raise(subject(group.name()),
						String.join(", ", group.defaults()), reason(group)));
			}
		}
		return findings;
	}

	private static String reason(GroupConverters group) {
		if (!group.shared()) {
			return "a converters configurer of the group's overrides the starter's set";
		}
		return FrameworkClientBuilders.defaultsOffKeepsConfigured()
				? "the application's converters bring them into the starter's set"
				: "Spring Framework before 7.0.7 (Boot before 4.0.6) makes them for every client: with the defaults "
						+ "off it would drop the starter's converters too";
	}

	static String subject(String group) {
		return "HTTP service group '" + group + "'";
	}

}
