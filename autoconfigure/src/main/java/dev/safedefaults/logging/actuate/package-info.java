/**
 * The logging feature's metrics, when Micrometer is present.
 */
@NullMarked
package dev.safedefaults.logging.actuate;

import org.jspecify.annotations.NullMarked;
