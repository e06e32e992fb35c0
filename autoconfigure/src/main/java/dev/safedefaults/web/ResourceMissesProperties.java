package dev.safedefaults.web;

import dev.safedefaults.PropertyBounds;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The resource chain's remembered misses ({@code safe-defaults.resource-misses.*}).
 */
@ConfigurationProperties(ResourceMissesProperties.PREFIX)
public class ResourceMissesProperties implements InitializingBean {

	static final String PREFIX = "safe-defaults.resource-misses";

	static final String ENABLED_PROPERTY = PREFIX + ".enabled";

	/** The largest maximum-size accepted. */
	static final long MAX_SIZE = 1_000_000;

	/**
	 * Whether to remember the links a page renders (ResourceUrlEncodingFilter) that are
	 * not resources: per resource handler, the paths its unchanging locations (class path
	 * and servlet context of a packaged application) do not hold, and per link, the
	 * patterns ResourceUrlProvider may skip; so that a link asks the class loader once
	 * instead of on every render. False restores Spring's behaviour; the check keeps
	 * running.
	 */
	private boolean enabled = true;

	/**
	 * The most entries remembered, all handlers together: one per link a page renders
	 * (per ResourceUrlProvider) and one per miss of a handler, each about 180 bytes plus
	 * the path's length (measured: 0.2 KB for a 20-character link, 2.2 KB for a
	 * 2000-character one, so about 22 MB at 10000 entries of the longest paths; a path
	 * longer than 2048 characters is never remembered); past it the least likely to be
	 * asked again are forgotten and asked for once more. At least 1 and at most 1000000.
	 */
	// Why 10000: a page's distinct links (without their query strings) are tens to
	// hundreds; links that carry an id (/owners/42/edit) are one entry per id, and the
	// bound keeps those from growing without limit.
	private long maximumSize = 10_000;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public long getMaximumSize() {
		return this.maximumSize;
	}

	public void setMaximumSize(long maximumSize) {
		this.maximumSize = maximumSize;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange(PREFIX + ".maximum-size", this.maximumSize, 1, MAX_SIZE,
				"entries remembered, all resource handlers together");
	}

}
