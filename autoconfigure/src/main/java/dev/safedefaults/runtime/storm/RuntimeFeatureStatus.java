package dev.safedefaults.runtime.storm;

import java.util.List;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code runtime} feature: what the detector watches and the last storm of
 * each kind with its time (the findings only show a storm while it lasts), or why it is
 * not watching.
 */
final class RuntimeFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "runtime";

	private final RuntimeStormProperties properties;

	private final ObjectProvider<RuntimeStormDetector> detectors;

	RuntimeFeatureStatus(RuntimeStormProperties properties, ObjectProvider<RuntimeStormDetector> detectors) {
		this.properties = properties;
		this.detectors = detectors;
	}

	@Override
	public FeatureStatus status() {
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE,
					"off by default (it costs CPU on every request); safe-defaults.runtime.enabled=true switches it on");
		}
		RuntimeStormDetector detector = this.detectors.getIfAvailable();
		if (detector == null) {
			return FeatureStatus.off(FEATURE, "no FindingsStore bean to report storms into");
		}
		String unavailable = detector.unavailableReason();
		if (unavailable != null) {
			return FeatureStatus.off(FEATURE, "exception storms cannot be detected: " + unavailable);
		}
		if (!detector.isRunning()) {
			// Asked before its lifecycle phase (the startup line): nothing measured yet.
			return FeatureStatus.applied(FEATURE, List.of("starting with the application"));
		}
		return FeatureStatus.applied(FEATURE, detector.describe());
	}

}
