package dev.safedefaults.check;

/**
 * Implemented by a bean of each feature so that the {@code safedefaults} endpoint can say
 * whether the feature is on, what it was applied to, or why not.
 * <p>
 * The implementations look alike (a feature name, the feature's properties, an
 * {@code ObjectProvider} of what it applied, one {@code status()} method) and stay
 * separate on purpose: what they share is this interface and {@link FeatureStatus}'s
 * factories; the rest is each feature's own decision (which switch, which missing library
 * or bean, what to count), and a common base class would hold only a constructor while
 * making the check package know what a feature's status is made of.
 */
@FunctionalInterface
public interface FeatureStatusReporter {

	/**
	 * Reports the feature's current status.
	 * @return the status
	 */
	FeatureStatus status();

	/**
	 * A reporter's status, or, when the reporter fails (a library of another version than
	 * the one it was built against, say), an {@code off} status that names the failure: a
	 * status never breaks the startup line or the endpoint.
	 * @param reporter the reporter
	 * @return its status
	 */
	static FeatureStatus statusOf(FeatureStatusReporter reporter) {
		try {
			return reporter.status();
		}
		catch (RuntimeException | LinkageError ex) {
			return FeatureStatus.off(reporter.getClass().getSimpleName(),
					"status failed: " + ex.getClass().getSimpleName());
		}
	}

}
