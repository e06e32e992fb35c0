package dev.safedefaults.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceUrlEncodingFilter;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * Raises {@code web.resource-misses-uncached} where the trap is present (a
 * {@link ResourceUrlEncodingFilter} rewrites the links pages render) and the default is
 * off, or cannot apply to a handler a {@link ResourceUrlProvider} asks: one given its own
 * handlers ({@code setHandlerMap}), which no handler mapping holds. A handler whose
 * locations all can change (run from directories) is not reported: there a miss is a
 * file-system look-up, and nothing may be remembered.
 */
final class ResourceMissesCheck implements Check {

	private final ListableBeanFactory beanFactory;

	private final boolean enabled;

	private final UnchangingLocations unchangingLocations;

	ResourceMissesCheck(ListableBeanFactory beanFactory, boolean enabled, UnchangingLocations unchangingLocations) {
		this.beanFactory = beanFactory;
		this.enabled = enabled;
		this.unchangingLocations = unchangingLocations;
	}

	@Override
	public List<Finding> run() {
		List<String> filters = encodingFilters();
		if (filters.isEmpty()) {
			return List.of();
		}
		String subject = String.join(", ", filters);
		if (!this.enabled) {
			return List.of(WebFindings.DEFAULT_OFF.raise(subject));
		}
		List<Finding> findings = new ArrayList<>();
		this.beanFactory.getBeansOfType(ResourceUrlProvider.class, false, false).forEach((name, provider) -> {
			if (provider.isAutodetect()) {
				// It will read the handler mappings' handlers, whose misses are
				// remembered.
				return;
			}
			provider.getHandlerMap().forEach((pattern, handler) -> {
				if (!ResourceMissesInstaller.isCovered(handler) && hasUnchangingLocation(handler)) {
					findings.add(WebFindings.HANDLER_NOT_COVERED.raise(name + " " + pattern, name, pattern));
				}
			});
		});
		return findings;
	}

	private boolean hasUnchangingLocation(ResourceHttpRequestHandler handler) {
		return handler.getLocations().stream().anyMatch(this.unchangingLocations::isUnchanging);
	}

	/** The names of the beans that register a ResourceUrlEncodingFilter. */
	private List<String> encodingFilters() {
		List<String> names = new ArrayList<>(
				List.of(this.beanFactory.getBeanNamesForType(ResourceUrlEncodingFilter.class, false, false)));
		@SuppressWarnings("rawtypes")
		Map<String, FilterRegistrationBean> registrations = this.beanFactory
			.getBeansOfType(FilterRegistrationBean.class, false, false);
		registrations.forEach((name, registration) -> {
			if (registration.getFilter() instanceof ResourceUrlEncodingFilter) {
				names.add(name);
			}
		});
		return names;
	}

}
