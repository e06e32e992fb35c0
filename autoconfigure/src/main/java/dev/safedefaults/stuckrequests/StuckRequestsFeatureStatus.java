package dev.safedefaults.stuckrequests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.DurationText;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code stuck-requests} feature: the threshold, whether the hosts called are
 * learnt, the deadline when it is set, the requests past the threshold now and the last
 * time there were some.
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
		appliedTo.add("servlet requests running longer than " + threshold + thresholdSource(watch)
				+ " are examined once from their thread's stack");
		appliedTo.add(hostsCalled(watch));
		Duration deadline = watch.interruptAfter();
		appliedTo.add((deadline != null)
				? "a request still running after " + DurationText.of(deadline) + " ("
						+ StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY + ") in a wait an interrupt ends has its "
						+ "thread interrupted once"
				: "no deadline: " + StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY
						+ " is not set, no request is interrupted");
		String scope = (deadline != null) ? threshold + ", interrupt-after " + DurationText.of(deadline) : threshold;
		return new FeatureStatus(FEATURE, true, appliedTo, watch.describe()).withScope(scope);
	}

	private String thresholdSource(StuckRequestsWatch watch) {
		if (watch.interruptAfter() != null && watch.threshold().equals(watch.interruptAfter())) {
			return " (" + StuckRequestsProperties.INTERRUPT_AFTER_PROPERTY + ")";
		}
		return (this.properties.getThreshold() != null) ? ""
				: " (the read timeout decided for the clients Boot builds)";
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
