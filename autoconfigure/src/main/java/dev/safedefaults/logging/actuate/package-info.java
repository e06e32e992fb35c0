/**
 * The logging metrics that both routes share, when Micrometer is present: the WARN and
 * ERROR events a stalled output could not take.
 */
@NullMarked
package dev.safedefaults.logging.actuate;

import org.jspecify.annotations.NullMarked;
