package dev.safedefaults.configcache;

import java.time.Duration;

import dev.safedefaults.PropertyBounds;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The parsed-configuration cache ({@code safe-defaults.config-cache.*}).
 */
@ConfigurationProperties("safe-defaults.config-cache")
public class ParsedConfigCacheProperties implements InitializingBean {

	/**
	 * Whether to provide the ParsedConfigCache bean. When false there is no such bean:
	 * parse with the application's JsonMapper instead.
	 */
	private boolean enabled = true;

	/** The largest bound accepted for maximum-weight. */
	static final DataSize MAX_WEIGHT = DataSize.ofGigabytes(1);

	/** The largest max-text-length accepted, in characters. */
	static final int MAX_TEXT_LENGTH = 64 * 1024 * 1024;

	/** The largest max-nesting-depth accepted. */
	static final int MAX_DEPTH = 1000;

	/**
	 * The most heap all entries together may retain, texts and parsed values, as
	 * estimated from each text's JSON tokens. Past it, the entries least likely to be
	 * used again are evicted. Measured for the worst shapes of JSON, a full cache retains
	 * less than twice this. More than 0 and at most 1GB.
	 */
	// Why 64MB: incident 4's configurations were few and small (the benchmark's is 2 KB),
	// so
	// a real working set of hundreds of texts stays far below it and is never evicted;
	// the
	// bound only bites under a flood of distinct texts.
	private DataSize maximumWeight = DataSize.ofMegabytes(64);

	/**
	 * The longest configuration text one entry may have, in characters; a longer text is
	 * refused with a ConfigParseException naming this property, before it is parsed. At
	 * least 1 and at most 67108864 (64 Mi).
	 */
	private int maxTextLength = ParsedConfigCache.DEFAULT_MAX_TEXT_LENGTH;

	/**
	 * The deepest nesting of JSON objects and arrays one text may have; a deeper text is
	 * refused with a ConfigParseException naming this property, before anything is built.
	 * At least 1 and at most 1000.
	 */
	private int maxNestingDepth = ParsedConfigCache.DEFAULT_MAX_DEPTH;

	/**
	 * How long an entry may go unread before it is dropped, for example 1h. Not set, an
	 * entry stays until the weight bound evicts it. From 1ms to 1d when set.
	 */
	private @Nullable Duration expireAfterAccess;

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

	public int getMaxTextLength() {
		return this.maxTextLength;
	}

	public void setMaxTextLength(int maxTextLength) {
		this.maxTextLength = maxTextLength;
	}

	public int getMaxNestingDepth() {
		return this.maxNestingDepth;
	}

	public void setMaxNestingDepth(int maxNestingDepth) {
		this.maxNestingDepth = maxNestingDepth;
	}

	public @Nullable Duration getExpireAfterAccess() {
		return this.expireAfterAccess;
	}

	public void setExpireAfterAccess(@Nullable Duration expireAfterAccess) {
		this.expireAfterAccess = expireAfterAccess;
	}

	@Override
	public void afterPropertiesSet() {
		PropertyBounds.requireRange("safe-defaults.config-cache.maximum-weight", this.maximumWeight,
				DataSize.ofBytes(1), MAX_WEIGHT,
				"the most heap the cache's entries may retain, in bytes, such as 64MB");
		PropertyBounds.requireRange(ParsedConfigCache.MAX_TEXT_LENGTH_PROPERTY, this.maxTextLength, 1, MAX_TEXT_LENGTH,
				"characters of one text");
		PropertyBounds.requireRange(ParsedConfigCache.MAX_DEPTH_PROPERTY, this.maxNestingDepth, 1, MAX_DEPTH,
				"levels of nesting of one text");
		if (this.expireAfterAccess != null) {
			PropertyBounds.requireRange("safe-defaults.config-cache.expire-after-access", this.expireAfterAccess,
					Duration.ofMillis(1), PropertyBounds.MAX_INTERVAL,
					"such as 1h, or not set to keep entries until the weight bound evicts them");
		}
	}

}
