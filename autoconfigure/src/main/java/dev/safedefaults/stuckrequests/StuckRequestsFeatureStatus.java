package dev.safedefaults.stuckrequests;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.DurationText;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code stuck-requests} feature: the threshold, whether the hosts called are
 * learnt, the requests past the threshold now and the last time there were some.
 */
final class StuckRequestsFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "stuck-requests";

	private final StuckRequestsProperties properties;

	private final ObjectProvider<StuckRequestsWatch> watches;

	StuckRequestsFeatureStatus(StuckRequestsProperties properties, ObjectProvider<StuckRequestsWatch> watches) {
		this.properties = properties;
		this.watches = watches;
	}

	@Override
	public FeatureStatus status() {
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE,
					StuckRequestsProperties.ENABLED_PROPERTY + " is false: a request that waits for ever is not named");
		}
		StuckRequestsWatch watch = this.watches.getIfAvailable();
		if (watch == null) {
			return FeatureStatus.off(FEATURE, "no FindingsStore bean to report stuck requests into");
		}
		List<String> appliedTo = new ArrayList<>();
		String threshold = DurationText.of(watch.threshold());
		appliedTo.add("servlet requests running longer than " + threshold
				+ ((this.properties.getThreshold() != null) ? ""
						: " (the read timeout decided for the clients Boot builds)")
				+ " are examined once from their thread's stack");
		appliedTo.add(hostsCalled(watch));
		return new FeatureStatus(FEATURE, true, appliedTo, watch.describe()).withScope(threshold);
	}

	private String hostsCalled(StuckRequestsWatch watch) {
		if (!this.properties.isLearnHosts()) {
			return "hosts called are not learnt: " + StuckRequestsProperties.LEARN_HOSTS_PROPERTY
					+ " is false, the JVM's proxy selector is left alone";
		}
		return watch.recordsDestinations()
				? "hosts called through the JVM's proxy selector are learnt (JDK HttpClient, HttpURLConnection, "
						+ "Apache HttpClient 5 with system properties)"
				: "hosts called are not learnt: the JVM's default proxy selector was replaced by another";
	}

}
