package dev.safedefaults.web;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of Spring MVC's resource chain (incident 1 in Spring's own web layer),
 * declared once.
 */
public final class WebFindings implements FindingDeclarations {

	/** The catalogue's declaration; raised only through one of its variants below. */
	static final FindingType RESOURCE_MISSES_UNCACHED = FindingType.declare("web.resource-misses-uncached", WARNING,
			"ResourceUrlEncodingFilter looks up every link a page renders as a static resource, and a link that is not "
					+ "one (a page, an action) is looked up again on every render: in a fat jar each miss walks every "
					+ "nested jar (incident 1 in Spring MVC's resource chain; 58x fewer pages per second measured on a "
					+ "page of 120 links).",
			"ResourceUrlEncodingFilter looks up every link a page renders as a static resource; %1$s.",
			"Remove what the message names; switching the resource chain off (spring.web.resources.chain.enabled=false) "
					+ "also ends the misses but loses the webjars' version-free and content-hashed URLs.");

	/** The default is switched off. No args. */
	static final FindingType DEFAULT_OFF = RESOURCE_MISSES_UNCACHED.because(
			"ResourceUrlEncodingFilter looks up every link a page renders as a static resource, and "
					+ "safe-defaults.resource-misses.enabled=false: a link that is not one is looked up on the "
					+ "class path again on every render (in a fat jar, through every nested jar).",
			"Remove safe-defaults.resource-misses.enabled=false.");

	/**
	 * A ResourceUrlProvider asks a handler whose misses are not remembered. Args: the
	 * provider's bean name, the handler's pattern.
	 */
	static final FindingType HANDLER_NOT_COVERED = RESOURCE_MISSES_UNCACHED.because(
			"ResourceUrlEncodingFilter looks up every link a page renders as a static resource, and the "
					+ "ResourceUrlProvider bean '%1$s' was given resource handlers of its own (setHandlerMap): the "
					+ "handler for %2$s is in no handler mapping, so what its locations lack is never learnt, and each "
					+ "link that %2$s matches and that is not a resource is looked up on the class path again on every "
					+ "render (only the patterns a link does not match are remembered, for this provider alone; its "
					+ "answers are always its own).",
			"Let the ResourceUrlProvider find the resource handlers (register them with a WebMvcConfigurer's "
					+ "addResourceHandlers instead of setHandlerMap); or switch the chain off "
					+ "(spring.web.resources.chain.enabled=false) if no page needs versioned or webjar URLs.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(RESOURCE_MISSES_UNCACHED);
	}

}
