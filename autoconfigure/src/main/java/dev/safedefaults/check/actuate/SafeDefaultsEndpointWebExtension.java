package dev.safedefaults.check.actuate;

import dev.safedefaults.check.actuate.SafeDefaultsEndpoint.SafeDefaultsReport;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * {@code GET /actuator/safedefaults} over HTTP: the report only for a request the health
 * rules allow to see details (see {@link FindingsAccess}); anyone else learns that
 * details are withheld and nothing about the application. Over JMX, a local operator's
 * channel, the endpoint answers in full, as Boot's health endpoint does.
 */
@EndpointWebExtension(endpoint = SafeDefaultsEndpoint.class)
public class SafeDefaultsEndpointWebExtension {

	private final SafeDefaultsEndpoint endpoint;

	private final FindingsAccess access;

	SafeDefaultsEndpointWebExtension(SafeDefaultsEndpoint endpoint, FindingsAccess access) {
		this.endpoint = endpoint;
		this.access = access;
	}

	/**
	 * Returns the report, or that it is withheld.
	 * @param securityContext the request's principal and roles
	 * @return the full {@link SafeDefaultsReport} or a {@link WithheldReport}
	 */
	@ReadOperation
	public Object report(SecurityContext securityContext) {
		return this.access.isShown(securityContext) ? this.endpoint.report() : WithheldReport.INSTANCE;
	}

	/**
	 * What a request that may not see the findings receives.
	 *
	 * @param details why nothing is shown
	 */
	public record WithheldReport(String details) {

		static final WithheldReport INSTANCE = new WithheldReport(
				"withheld: shown as the safe-defaults health group's details are (management.endpoint.health.show-details, safe-defaults.health.show-details)");

	}

}
