package dev.safedefaults.check.actuate;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;
import org.springframework.util.CollectionUtils;

/**
 * The {@code safe-defaults} health group: only the {@code safeDefaults} contributor, with
 * every other setting taken from the group Boot already built for the application. That
 * is the application's own {@code management.endpoint.health.group.safe-defaults.*} group
 * when it configured one, else the primary group, so an unset group inherits
 * {@code management.endpoint.health.show-details}, {@code show-components} and
 * {@code roles} as every Boot group does. {@code safe-defaults.health.show-details}, when
 * set, stands in for the group's {@code show-details} and {@code show-components} that
 * the application left unset, with the roles Boot gives the group.
 */
final class SafeDefaultsHealthEndpointGroup implements HealthEndpointGroup {

	/** The group's name, as in {@code /actuator/health/safe-defaults}. */
	static final String NAME = "safe-defaults";

	/**
	 * The contributor's name: Boot names it after the bean
	 * {@value SafeDefaultsHealthContributorAutoConfiguration#BEAN_NAME}.
	 */
	static final String CONTRIBUTOR = "safeDefaults";

	private final HealthEndpointGroup settings;

	private final boolean ownGroup;

	private final boolean ownMembers;

	private final @Nullable Show showDetails;

	private final @Nullable Show showComponents;

	private final Set<String> roles;

	private SafeDefaultsHealthEndpointGroup(HealthEndpointGroup settings, boolean ownGroup, boolean ownMembers,
			@Nullable Show showDetails, @Nullable Show showComponents, Set<String> roles) {
		this.settings = settings;
		this.ownGroup = ownGroup;
		this.ownMembers = ownMembers;
		this.showDetails = showDetails;
		this.showComponents = showComponents;
		this.roles = roles;
	}

	/**
	 * The group for these health groups.
	 * @param groups the groups Boot built
	 * @param health Boot's {@code management.endpoint.health} properties
	 * @param starterShowDetails {@code safe-defaults.health.show-details}, {@code null}
	 * when unset
	 * @return the group; a {@code safe-defaults} group that Boot did not build from
	 * properties (a bean of the application's) is returned as it is
	 */
	static HealthEndpointGroup of(HealthEndpointGroups groups, HealthEndpointProperties health,
			@Nullable Show starterShowDetails) {
		HealthEndpointGroup own = groups.get(NAME);
		if (own == null) {
			return new SafeDefaultsHealthEndpointGroup(groups.getPrimary(), false, false, starterShowDetails,
					starterShowDetails, health.getRoles());
		}
		HealthEndpointProperties.Group configured = health.getGroup().get(NAME);
		if (configured == null) {
			return own;
		}
		boolean ownMembers = configured.getInclude() != null || configured.getExclude() != null;
		// Boot's rule for a group's roles: its own, else the health endpoint's
		// (AutoConfiguredHealthEndpointGroups, checked against Boot 4.0.0 and 4.0.9).
		// HealthEndpointGroup exposes no roles, so the rule is restated here;
		// SafeDefaultsHealthGroupTests (the roles of the endpoint, of the group) fail if
		// Boot changes it.
		Set<String> roles = !CollectionUtils.isEmpty(configured.getRoles()) ? configured.getRoles() : health.getRoles();
		return new SafeDefaultsHealthEndpointGroup(own, true, ownMembers,
				(configured.getShowDetails() != null) ? null : starterShowDetails,
				(configured.getShowComponents() != null) ? null : starterShowDetails, roles);
	}

	@Override
	public boolean isMember(String name) {
		return this.ownMembers ? this.settings.isMember(name) : CONTRIBUTOR.equals(name);
	}

	@Override
	public boolean showComponents(SecurityContext securityContext) {
		return (this.showComponents != null) ? this.showComponents.isShown(securityContext, this.roles)
				: this.settings.showComponents(securityContext);
	}

	@Override
	public boolean showDetails(SecurityContext securityContext) {
		return (this.showDetails != null) ? this.showDetails.isShown(securityContext, this.roles)
				: this.settings.showDetails(securityContext);
	}

	@Override
	public StatusAggregator getStatusAggregator() {
		return this.settings.getStatusAggregator();
	}

	@Override
	public HttpCodeStatusMapper getHttpCodeStatusMapper() {
		return this.settings.getHttpCodeStatusMapper();
	}

	@Override
	public @Nullable AdditionalHealthEndpointPath getAdditionalPath() {
		// The primary group's path is the endpoint's own, not this group's.
		return this.ownGroup ? this.settings.getAdditionalPath() : null;
	}

}
