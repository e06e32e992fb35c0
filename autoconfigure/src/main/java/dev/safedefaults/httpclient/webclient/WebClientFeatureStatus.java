package dev.safedefaults.httpclient.webclient;

import java.util.List;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code webclient} feature: Boot's {@code WebClient.Builder} watched for
 * clients built per request. Loads no WebClient class: without
 * {@code spring-boot-webclient} it says the library is absent.
 */
final class WebClientFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "webclient";

	private final WebClientProperties properties;

	private final ObjectProvider<WebClientBuilds> builds;

	WebClientFeatureStatus(WebClientProperties properties, ObjectProvider<WebClientBuilds> builds) {
		this.properties = properties;
		this.builds = builds;
	}

	@Override
	public FeatureStatus status() {
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE, "safe-defaults.webclient.enabled=false: clients built per request from "
					+ "Boot's WebClient.Builder are not counted");
		}
		if (this.builds.getIfAvailable() == null) {
			return FeatureStatus.off(FEATURE,
					"library absent: spring-boot-webclient (Boot's WebClient.Builder) is not on the class path");
		}
		return new FeatureStatus(FEATURE, true,
				List.of("WebClient.Builder (clients built after startup are counted: webclient.per-request-build)"),
				null)
			.withScope("builder");
	}

}
