package dev.safedefaults.check;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What one feature did in this application: whether it is on, what it was applied to, and
 * if not, why not. Every feature reports through one {@link FeatureStatusReporter} bean
 * returning this one shape.
 *
 * @param feature the feature's name, as in its property prefix ({@code config-cache})
 * @param enabled whether the feature's default is active
 * @param appliedTo what the default was applied to (clients, pools, beans), masked
 * @param reason why it is not active, or a short note; {@code null} when there is none
 * @param scope what it was applied to in a few words for the startup line
 * ({@code 2 clients}, {@code HikariPool-1}), masked; {@code null} when there is nothing
 * to count
 */
public record FeatureStatus(String feature, boolean enabled, List<String> appliedTo, @Nullable String reason,
		@Nullable String scope) {

	public FeatureStatus {
		appliedTo = appliedTo.stream().map(SecretMasker::maskText).toList();
		reason = SecretMasker.maskText(reason);
		scope = SecretMasker.maskText(scope);
	}

	/**
	 * A status without a scope.
	 * @param feature the feature's name
	 * @param enabled whether it is active
	 * @param appliedTo what it was applied to
	 * @param reason why not, or a note
	 */
	public FeatureStatus(String feature, boolean enabled, List<String> appliedTo, @Nullable String reason) {
		this(feature, enabled, appliedTo, reason, null);
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

	/**
	 * This status with a scope for the startup line.
	 * @param scope what it was applied to, in a few words
	 * @return the status
	 */
	public FeatureStatus withScope(@Nullable String scope) {
		return new FeatureStatus(this.feature, this.enabled, this.appliedTo, this.reason, scope);
	}

	/**
	 * The feature as the startup line names it: {@code feign(2 clients)}.
	 * @return the short form
	 */
	public String shortForm() {
		return (this.scope != null && !this.scope.isBlank()) ? this.feature + "(" + this.scope + ")" : this.feature;
	}

}
