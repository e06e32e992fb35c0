package dev.safedefaults.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.io.Resource;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.handler.AbstractUrlHandlerMapping;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceResolver;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * Puts a {@link MissRememberingResourceResolver} first in the resolver list of every
 * resource handler of the application's URL handler mappings (where
 * {@code ResourceUrlProvider} finds them) that has at least one unchanging location. Done
 * once every singleton exists, before the web server takes a request.
 * <p>
 * A handler builds the chain that serves requests once, from its list as it was when it
 * was initialised; {@code ResourceUrlProvider} builds a chain from the list
 * ({@code getResourceResolvers()}) on every call. So the resolver added here is asked
 * only for public URLs, which are what the links of a page need, and never for serving a
 * resource.
 */
final class ResourceMissesInstaller implements SmartInitializingSingleton {

	private final ObjectProvider<HandlerMapping> handlerMappings;

	private final ObjectProvider<ResourceUrlProvider> urlProviders;

	private final RememberedMisses misses;

	private final UnchangingLocations unchangingLocations;

	private final Map<String, String> covered = new LinkedHashMap<>();

	private final Map<String, String> uncovered = new LinkedHashMap<>();

	private int handlers;

	ResourceMissesInstaller(ObjectProvider<HandlerMapping> handlerMappings,
			ObjectProvider<ResourceUrlProvider> urlProviders, RememberedMisses misses,
			UnchangingLocations unchangingLocations) {
		this.handlerMappings = handlerMappings;
		this.urlProviders = urlProviders;
		this.misses = misses;
		this.unchangingLocations = unchangingLocations;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.handlerMappings.orderedStream()
			.filter(AbstractUrlHandlerMapping.class::isInstance)
			.map(AbstractUrlHandlerMapping.class::cast)
			.forEach((mapping) -> mapping.getHandlerMap().forEach((pattern, handler) -> {
				if (handler instanceof ResourceHttpRequestHandler resourceHandler) {
					install(pattern, resourceHandler);
				}
			}));
		this.urlProviders.orderedStream()
			.filter((provider) -> !(provider.getPathMatcher() instanceof MissSkippingPathMatcher))
			.forEach((provider) -> provider.setPathMatcher(new MissSkippingPathMatcher(provider, this.misses)));
	}

	private void install(String pattern, ResourceHttpRequestHandler handler) {
		List<ResourceResolver> resolvers = handler.getResourceResolvers();
		if (resolvers.stream().anyMatch(MissRememberingResourceResolver.class::isInstance)) {
			return;
		}
		List<Resource> locations = handler.getLocations();
		List<Resource> changing = locations.stream()
			.filter((location) -> !this.unchangingLocations.isUnchanging(location))
			.toList();
		if (changing.size() == locations.size()) {
			this.uncovered.put(pattern,
					"no location inside a packaged jar (" + locations.size() + " asked every time)");
			return;
		}
		List<ResourceResolver> withMisses = new ArrayList<>(resolvers.size() + 1);
		withMisses.add(new MissRememberingResourceResolver(this.misses, this.handlers++, locations, changing));
		withMisses.addAll(resolvers);
		handler.setResourceResolvers(withMisses);
		this.covered.put(pattern, (locations.size() - changing.size()) + " of " + locations.size()
				+ " locations remembered, " + changing.size() + " asked every time");
	}

	/**
	 * Whether this handler's misses are remembered.
	 * @param handler a resource handler
	 * @return {@code true} when its resolver list starts with the remembering resolver
	 */
	static boolean isCovered(ResourceHttpRequestHandler handler) {
		List<ResourceResolver> resolvers = handler.getResourceResolvers();
		return !resolvers.isEmpty() && resolvers.get(0) instanceof MissRememberingResourceResolver;
	}

	/** Handlers whose misses are remembered, by pattern, each with its locations. */
	Map<String, String> covered() {
		return this.covered;
	}

	/** Handlers left as they were, by pattern, each with why. */
	Map<String, String> uncovered() {
		return this.uncovered;
	}

	boolean isUnchanging(Resource location) {
		return this.unchangingLocations.isUnchanging(location);
	}

}
