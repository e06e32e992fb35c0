package dev.safedefaults.web;

import java.util.ArrayList;
import java.util.List;

import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Reports the {@code resource-misses} feature: each resource handler whose misses are
 * remembered and how many of its locations, or why none.
 */
final class ResourceMissesFeatureStatus implements FeatureStatusReporter {

	static final String FEATURE = "resource-misses";

	private final ResourceMissesProperties properties;

	private final ObjectProvider<ResourceMissesInstaller> installers;

	private final ObjectProvider<RememberedMisses> misses;

	ResourceMissesFeatureStatus(ResourceMissesProperties properties, ObjectProvider<ResourceMissesInstaller> installers,
			ObjectProvider<RememberedMisses> misses) {
		this.properties = properties;
		this.installers = installers;
		this.misses = misses;
	}

	@Override
	public FeatureStatus status() {
		if (!this.properties.isEnabled()) {
			return FeatureStatus.off(FEATURE, ResourceMissesProperties.ENABLED_PROPERTY
					+ " is false: every link a page renders that is not a resource is looked up again on every render");
		}
		ResourceMissesInstaller installer = this.installers.getIfAvailable();
		RememberedMisses remembered = this.misses.getIfAvailable();
		if (installer == null || remembered == null) {
			return FeatureStatus.off(FEATURE, "Caffeine is not on the class path");
		}
		if (installer.covered().isEmpty()) {
			String why = installer.uncovered().isEmpty() ? "no resource handler"
					: "no resource handler has a location inside a packaged jar (run from directories, where a file "
							+ "added is served at once: every miss is asked again)";
			return FeatureStatus.off(FEATURE, why);
		}
		List<String> appliedTo = new ArrayList<>();
		installer.covered().forEach((pattern, how) -> appliedTo.add(pattern + " (" + how + ")"));
		installer.uncovered().forEach((pattern, why) -> appliedTo.add(pattern + " not remembered: " + why));
		int handlers = installer.covered().size();
		return new FeatureStatus(FEATURE, true, appliedTo, remembered.describe())
			.withScope(handlers + ((handlers == 1) ? " handler" : " handlers"));
	}

}
