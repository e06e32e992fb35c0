/**
 * The config cache's metrics, when Micrometer is present.
 */
@NullMarked
package dev.safedefaults.configcache.actuate;

import org.jspecify.annotations.NullMarked;
