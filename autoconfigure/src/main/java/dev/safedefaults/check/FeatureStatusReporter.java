package dev.safedefaults.check;

/**
 * Implemented by a bean of each feature so that the {@code safedefaults} endpoint can say
 * whether the feature is on, what it was applied to, or why not.
 */
@FunctionalInterface
public interface FeatureStatusReporter {

	/**
	 * Reports the feature's current status.
	 * @return the status
	 */
	FeatureStatus status();

}
