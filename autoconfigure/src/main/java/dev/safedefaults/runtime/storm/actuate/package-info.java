/**
 * The runtime detectors' metrics, when Micrometer is present.
 */
@NullMarked
package dev.safedefaults.runtime.storm.actuate;

import org.jspecify.annotations.NullMarked;
