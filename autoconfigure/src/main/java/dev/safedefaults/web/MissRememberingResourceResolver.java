package dev.safedefaults.web;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.Resource;
import org.springframework.web.servlet.resource.ResourceResolver;
import org.springframework.web.servlet.resource.ResourceResolverChain;

/**
 * The first resolver of a resource handler's chain as {@code ResourceUrlProvider} reads
 * it: a public URL asked for a path that the handler's unchanging locations do not hold
 * (a link to a page, never a resource) is answered from {@link RememberedMisses}; only
 * the locations that can change are asked again. Everything else goes down the chain
 * untouched, so a resource that exists is found and versioned exactly as before
 * ({@code CachingResourceResolver}, next in the chain, remembers those).
 * <p>
 * Why: Framework's {@code CachingResourceResolver} caches only hits; with the chain on,
 * {@code ResourceUrlEncodingFilter} asks for every link a page renders, and in a fat jar
 * each miss walks every nested jar (incident 1's mechanism; spring-framework #34014,
 * #27538).
 */
final class MissRememberingResourceResolver implements ResourceResolver {

	private final RememberedMisses misses;

	private final int handler;

	private final List<Resource> locations;

	private final List<Resource> changingLocations;

	/**
	 * Creates the resolver for one handler.
	 * @param misses where the misses are remembered
	 * @param handler the handler's number, part of each remembered path
	 * @param locations the handler's locations, as its chain is asked with them
	 * @param changingLocations those of them that can change, asked on every call
	 */
	MissRememberingResourceResolver(RememberedMisses misses, int handler, List<Resource> locations,
			List<Resource> changingLocations) {
		this.misses = misses;
		this.handler = handler;
		this.locations = List.copyOf(locations);
		this.changingLocations = List.copyOf(changingLocations);
	}

	@Override
	public @Nullable Resource resolveResource(@Nullable HttpServletRequest request, String requestPath,
			List<? extends Resource> locations, ResourceResolverChain chain) {
		return chain.resolveResource(request, requestPath, locations);
	}

	@Override
	public @Nullable String resolveUrlPath(String resourcePath, List<? extends Resource> locations,
			ResourceResolverChain chain) {
		if (!this.locations.equals(locations)) {
			// Asked with other locations than the handler's own: nothing is known of
			// them.
			return chain.resolveUrlPath(resourcePath, locations);
		}
		if (this.misses.isRemembered(this.handler, resourcePath)) {
			// The unchanging locations lack it for ever; what the others hold is found
			// exactly as the whole list would find it, since they come up empty.
			return this.changingLocations.isEmpty() ? null : chain.resolveUrlPath(resourcePath, this.changingLocations);
		}
		String resolved = chain.resolveUrlPath(resourcePath, locations);
		if (resolved == null) {
			this.misses.remember(this.handler, resourcePath);
		}
		return resolved;
	}

	int handler() {
		return this.handler;
	}

	/**
	 * Whether a remembered miss is answered without asking any location.
	 * @return {@code true} when every location of the handler is unchanging
	 */
	boolean asksNoLocationAgain() {
		return this.changingLocations.isEmpty();
	}

	@Override
	public String toString() {
		return "MissRememberingResourceResolver[" + this.changingLocations.size() + " of " + this.locations.size()
				+ " locations asked on every miss]";
	}

}
