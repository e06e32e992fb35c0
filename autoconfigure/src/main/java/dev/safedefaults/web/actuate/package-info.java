/**
 * The remembered resource misses' metrics, when Micrometer is present.
 */
@NullMarked
package dev.safedefaults.web.actuate;

import org.jspecify.annotations.NullMarked;
