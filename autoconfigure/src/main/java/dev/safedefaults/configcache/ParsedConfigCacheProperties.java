package dev.safedefaults.configcache;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The parsed-configuration cache ({@code safe-defaults.config-cache.*}).
 */
@ConfigurationProperties("safe-defaults.config-cache")
public class ParsedConfigCacheProperties {

	/**
	 * Whether to provide the ParsedConfigCache bean. When false there is no such bean:
	 * parse with the application's JsonMapper instead.
	 */
	private boolean enabled = true;

	/**
	 * The most text the cache may hold, all entries together, counted as the texts' length
	 * in characters with one byte standing for one character: 64MB holds 64 Mi
	 * characters. Past it, the entries least likely to be used again are evicted. A full
	 * cache takes about twice this in heap: the text (one byte a character for Latin-1
	 * text, two otherwise) plus the parsed objects. Must be positive.
	 */
	// Why 64MB: incident 4's configurations were few and small (the benchmark's is 2 KB), so
	// a real working set of hundreds of texts stays far below it and is never evicted; the
	// bound only bites under a flood of distinct texts, capping it near 130 MB of heap
	// (parsed records measured at 0.8 byte per character of their text).
	private DataSize maximumWeight = DataSize.ofMegabytes(64);

	/**
	 * How long an entry may go unread before it is dropped, for example 1h. Not set, an
	 * entry stays until the weight bound evicts it. Must be positive when set.
	 */
	private Duration expireAfterAccess;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public DataSize getMaximumWeight() {
		return this.maximumWeight;
	}

	public void setMaximumWeight(DataSize maximumWeight) {
		this.maximumWeight = maximumWeight;
	}

	public Duration getExpireAfterAccess() {
		return this.expireAfterAccess;
	}

	public void setExpireAfterAccess(Duration expireAfterAccess) {
		this.expireAfterAccess = expireAfterAccess;
	}

}
