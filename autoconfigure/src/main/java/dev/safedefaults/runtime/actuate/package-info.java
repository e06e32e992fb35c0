/**
 * The runtime detectors' metrics, when Micrometer is present.
 */
@NullMarked
package dev.safedefaults.runtime.actuate;

import org.jspecify.annotations.NullMarked;
