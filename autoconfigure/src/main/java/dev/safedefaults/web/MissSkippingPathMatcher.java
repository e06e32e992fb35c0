package dev.safedefaults.web;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.util.PathMatcher;
import org.springframework.web.servlet.resource.ResourceHttpRequestHandler;
import org.springframework.web.servlet.resource.ResourceResolver;
import org.springframework.web.servlet.resource.ResourceUrlProvider;

/**
 * The path matcher of a {@link ResourceUrlProvider} ({@code setPathMatcher}, its public
 * extension point): a lookup path already known to miss every location of a pattern's
 * handler does not match that pattern, so {@code getForLookupPath} neither tokenises it
 * against the pattern nor builds and walks the handler's resolver chain for it. The
 * answer is the one the chain would give: a pattern whose handler finds nothing is
 * skipped by {@code getForLookupPath} in the same way, and the other patterns keep their
 * order.
 * <p>
 * Only for a handler whose locations all are unchanging (its
 * {@link MissRememberingResourceResolver} asks no location again): a miss is learnt from
 * that resolver on a first render, then remembered for the pattern and the whole lookup
 * path on the next one, for this provider only: another provider may map the same pattern
 * to another handler. Every other method is the provider's own matcher's.
 */
final class MissSkippingPathMatcher implements PathMatcher {

	private final PathMatcher delegate;

	private final ResourceUrlProvider provider;

	private final RememberedMisses misses;

	/** The provider's number: its skips are its own. */
	private final int number;

	/**
	 * Creates the matcher for one provider.
	 * @param provider the provider, whose handlers are read as it reads them
	 * @param misses where the misses are remembered
	 */
	MissSkippingPathMatcher(ResourceUrlProvider provider, RememberedMisses misses) {
		this.delegate = provider.getPathMatcher();
		this.provider = provider;
		this.misses = misses;
		this.number = misses.newProvider();
	}

	@Override
	public boolean match(String pattern, String path) {
		if (this.misses.isSkipped(this.number, pattern, path)) {
			return false;
		}
		if (!this.delegate.match(pattern, path)) {
			// A pure function of the two strings: it never will.
			this.misses.skip(this.number, pattern, path);
			return false;
		}
		MissRememberingResourceResolver resolver = rememberingEveryLocation(this.provider.getHandlerMap().get(pattern));
		if (resolver != null && this.misses.isRemembered(resolver.handler(),
				this.delegate.extractPathWithinPattern(pattern, path))) {
			this.misses.skip(this.number, pattern, path);
			return false;
		}
		return true;
	}

	/**
	 * The handler's remembering resolver when no location of the handler is asked again
	 * for a remembered miss.
	 */
	private static @Nullable MissRememberingResourceResolver rememberingEveryLocation(
			@Nullable ResourceHttpRequestHandler handler) {
		if (handler == null) {
			return null;
		}
		List<ResourceResolver> resolvers = handler.getResourceResolvers();
		if (!resolvers.isEmpty() && resolvers.get(0) instanceof MissRememberingResourceResolver remembering
				&& remembering.asksNoLocationAgain()) {
			return remembering;
		}
		return null;
	}

	boolean remembersSkip(String pattern, String lookupPath) {
		return this.misses.isSkipped(this.number, pattern, lookupPath);
	}

	PathMatcher delegate() {
		return this.delegate;
	}

	@Override
	public boolean isPattern(String path) {
		return this.delegate.isPattern(path);
	}

	@Override
	public boolean matchStart(String pattern, String path) {
		return this.delegate.matchStart(pattern, path);
	}

	@Override
	public String extractPathWithinPattern(String pattern, String path) {
		return this.delegate.extractPathWithinPattern(pattern, path);
	}

	@Override
	public Map<String, String> extractUriTemplateVariables(String pattern, String path) {
		return this.delegate.extractUriTemplateVariables(pattern, path);
	}

	@Override
	public Comparator<String> getPatternComparator(String path) {
		return this.delegate.getPatternComparator(path);
	}

	@Override
	public String combine(String pattern1, String pattern2) {
		return this.delegate.combine(pattern1, pattern2);
	}

	@Override
	public String toString() {
		return "MissSkippingPathMatcher[" + this.delegate + "]";
	}

}
