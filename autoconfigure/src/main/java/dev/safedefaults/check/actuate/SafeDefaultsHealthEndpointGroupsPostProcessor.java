package dev.safedefaults.check.actuate;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.AdditionalPathsMapper;
import org.springframework.boot.actuate.endpoint.web.WebServerNamespace;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointProperties;

/**
 * Adds the {@code safe-defaults} health group ({@link SafeDefaultsHealthEndpointGroup})
 * to the groups Boot built, through the extension point Boot's availability probes use.
 * The liveness and readiness groups are left as Boot makes them.
 */
final class SafeDefaultsHealthEndpointGroupsPostProcessor implements HealthEndpointGroupsPostProcessor {

	private final HealthEndpointProperties health;

	private final SafeDefaultsHealthProperties properties;

	SafeDefaultsHealthEndpointGroupsPostProcessor(HealthEndpointProperties health,
			SafeDefaultsHealthProperties properties) {
		this.health = health;
		this.properties = properties;
	}

	@Override
	public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
		return new WithSafeDefaultsGroup(groups,
				SafeDefaultsHealthEndpointGroup.of(groups, this.health, this.properties.getShowDetails()));
	}

	/**
	 * Boot's groups with the {@code safe-defaults} group in place of (or added to)
	 * theirs. Additional paths are asked of the groups it decorates, as Boot's own
	 * decorator does.
	 */
	private static final class WithSafeDefaultsGroup implements HealthEndpointGroups, AdditionalPathsMapper {

		private final HealthEndpointGroups groups;

		private final HealthEndpointGroup group;

		private final Set<String> names;

		WithSafeDefaultsGroup(HealthEndpointGroups groups, HealthEndpointGroup group) {
			this.groups = groups;
			this.group = group;
			Set<String> names = new LinkedHashSet<>(groups.getNames());
			names.add(SafeDefaultsHealthEndpointGroup.NAME);
			this.names = Collections.unmodifiableSet(names);
		}

		@Override
		public HealthEndpointGroup getPrimary() {
			return this.groups.getPrimary();
		}

		@Override
		public Set<String> getNames() {
			return this.names;
		}

		@Override
		public @Nullable HealthEndpointGroup get(String name) {
			return SafeDefaultsHealthEndpointGroup.NAME.equals(name) ? this.group : this.groups.get(name);
		}

		@Override
		public @Nullable List<String> getAdditionalPaths(EndpointId endpointId, WebServerNamespace webServerNamespace) {
			return (this.groups instanceof AdditionalPathsMapper mapper)
					? mapper.getAdditionalPaths(endpointId, webServerNamespace) : null;
		}

	}

}
