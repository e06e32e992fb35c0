package dev.safedefaults.httpclient.restclient;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.httpclient.FrameworkClientBuilders;
import dev.safedefaults.httpclient.SharedConvertersOutcome;
import dev.safedefaults.httpclient.restclient.RestClientBuilds.GroupConverters;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code restclient} feature: Boot's builder and each HTTP service group that
 * got the shared converters set, or why none did. Loads no RestClient class: without
 * {@code spring-boot-restclient} it says the library is absent.
 */
final class RestClientFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "restclient";

	private final RestClientProperties properties;

	private final ObjectProvider<RestClientBuilds> builds;

	private final ObjectProvider<SharedConvertersOutcome> outcome;

	RestClientFeatureStatus(RestClientProperties properties, ObjectProvider<RestClientBuilds> builds,
			ObjectProvider<SharedConvertersOutcome> outcome) {
		this.properties = properties;
		this.builds = builds;
		this.outcome = outcome;
	}

	@Override
	public FeatureStatus status() {
		RestClientBuilds recorded = this.builds.getIfAvailable();
		if (recorded == null) {
			return FeatureStatus.off(FEATURE, "library absent: spring-boot-restclient (with "
					+ "spring-boot-http-converter) is not on the class path");
		}
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE, "safe-defaults.restclient.enabled=false: every client built from "
					+ "Boot's RestClient.Builder assembles Framework's default converters");
		}
		SharedConvertersOutcome shared = this.outcome.getIfAvailable();
		if (shared != null && !shared.missing().isEmpty()) {
			return FeatureStatus.off(FEATURE, "the shared converters set lacked " + String.join(", ", shared.missing())
					+ " (httpclient.shared-converters-incomplete): clients from Boot's builder keep Boot's converters");
		}
		List<String> appliedTo = new ArrayList<>();
		appliedTo.add("RestClient.Builder (every client built from Boot's builder"
				+ (FrameworkClientBuilders.defaultsOffKeepsConfigured() ? ")"
						: "; Spring Framework before 7.0.7 still makes the defaults' small converters per client)"));
		List<String> notApplied = new ArrayList<>();
		int groups = 0;
		for (GroupConverters group : recorded.groups()) {
			if (group.shared()) {
				appliedTo.add("HTTP service group '" + group.name() + "'");
				groups++;
			}
			else {
				notApplied.add(group.name());
			}
		}
		String reason = notApplied.isEmpty() ? null
				: "a converters configurer of its own replaces the shared set for group "
						+ String.join(", ", notApplied);
		return new FeatureStatus(FEATURE, true, appliedTo, reason)
			.withScope("builder" + ((groups == 0) ? "" : ", " + groups + ((groups == 1) ? " group" : " groups")));
	}

}
