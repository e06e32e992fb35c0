/**
 * The root of safe-defaults: the master switch ({@code safe-defaults.enabled}), the root
 * auto-configuration, and {@link dev.safedefaults.PropertyBounds}, the range check every
 * properties class runs on itself. Each feature lives in a sub-package of its own.
 */
@NullMarked
package dev.safedefaults;

import org.jspecify.annotations.NullMarked;
