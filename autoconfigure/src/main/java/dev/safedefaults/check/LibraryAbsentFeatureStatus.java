package dev.safedefaults.check;

/**
 * The status of a feature whose library is not on the class path: the feature's own
 * reporter cannot even be loaded then, so its auto-configuration contributes this one,
 * under the same bean name, instead.
 */
public final class LibraryAbsentFeatureStatus implements FeatureStatusReporter {

	private final String feature;

	private final String reason;

	/**
	 * Creates the status.
	 * @param feature the feature's name
	 * @param reason which library is missing
	 */
	public LibraryAbsentFeatureStatus(String feature, String reason) {
		this.feature = feature;
		this.reason = reason;
	}

	@Override
	public FeatureStatus status() {
		return FeatureStatus.off(this.feature, this.reason);
	}

}
