/**
 * The health contributor, the {@code safedefaults} endpoint and the findings metrics:
 * readers of the {@link dev.safedefaults.check.FindingsStore}, when Actuator or
 * Micrometer is present.
 */
@NullMarked
package dev.safedefaults.check.actuate;

import org.jspecify.annotations.NullMarked;
