/**
 * The parsed-configuration cache (incident 4) and
 * {@link dev.safedefaults.configcache.ConfigCacheFindings}.
 */
@NullMarked
package dev.safedefaults.configcache;

import org.jspecify.annotations.NullMarked;
