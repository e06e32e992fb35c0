package dev.safedefaults.check;

import java.util.List;

/**
 * What one feature did in this application: whether it is on, what it was applied to,
 * and if not, why not.
 *
 * @param feature the feature's name, as in its property prefix ({@code config-cache})
 * @param enabled whether the feature's default is active
 * @param appliedTo what the default was applied to (clients, pools, beans), masked
 * @param reason why it is not active, or a short note; {@code null} when there is none
 */
public record FeatureStatus(String feature, boolean enabled, List<String> appliedTo, String reason) {

	public FeatureStatus {
		appliedTo = appliedTo.stream().map(SecretMasker::maskText).toList();
		reason = SecretMasker.maskText(reason);
	}

	/**
	 * A feature that is active.
	 * @param feature the feature's name
	 * @param appliedTo what it was applied to
	 * @return the status
	 */
	public static FeatureStatus applied(String feature, List<String> appliedTo) {
		return new FeatureStatus(feature, true, appliedTo, null);
	}

	/**
	 * A feature that is not active.
	 * @param feature the feature's name
	 * @param reason why not, naming the property or the missing library
	 * @return the status
	 */
	public static FeatureStatus off(String feature, String reason) {
		return new FeatureStatus(feature, false, List.of(), reason);
	}

}
