package dev.safedefaults.check.actuate;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

/**
 * Whether an HTTP request may read the findings on the {@code safedefaults} endpoint. The
 * endpoint follows the same rules as the {@code safe-defaults} health group, so one
 * setting governs both: the group's own {@code show-details} and roles, which inherit
 * {@code management.endpoint.health.show-details} and {@code roles} unless
 * {@code safe-defaults.health.show-details} (or the application) sets them for the group.
 * With Boot's health support the rule is built in
 * {@link SafeDefaultsEndpointAutoConfiguration}, so this type never names its classes.
 */
@FunctionalInterface
interface FindingsAccess {

	/**
	 * Whether the findings are shown to this request.
	 * @param securityContext the request's principal and roles
	 * @return {@code true} when the findings may be shown
	 */
	boolean isShown(SecurityContext securityContext);

	/**
	 * Without Boot's health support: {@code safe-defaults.health.show-details}, else
	 * never.
	 * @param showDetails {@code safe-defaults.health.show-details}, may be {@code null}
	 * @param roles {@code management.endpoint.health.roles}
	 * @return the access rule
	 */
	static FindingsAccess ofProperty(@Nullable Show showDetails, Set<String> roles) {
		Show show = (showDetails != null) ? showDetails : Show.NEVER;
		return (securityContext) -> show.isShown(securityContext, roles);
	}

}
