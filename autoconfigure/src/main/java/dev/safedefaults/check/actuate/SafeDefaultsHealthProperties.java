package dev.safedefaults.check.actuate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Who may read the findings over HTTP: the {@code safe-defaults} health group's details
 * and the {@code safedefaults} endpoint's report.
 */
@ConfigurationProperties("safe-defaults.health")
public class SafeDefaultsHealthProperties {

	/**
	 * Who sees the findings in the 'safe-defaults' health group and the 'safedefaults'
	 * endpoint: 'never', 'when-authorized' or 'always'. Unset, the application's
	 * management.endpoint.health.show-details (and roles) apply, Boot's default being
	 * 'never'. Set 'always' only where the management port is reached by operators alone,
	 * or for local development.
	 */
	private @Nullable Show showDetails;

	public @Nullable Show getShowDetails() {
		return this.showDetails;
	}

	public void setShowDetails(@Nullable Show showDetails) {
		this.showDetails = showDetails;
	}

}
