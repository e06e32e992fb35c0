/**
 * The logging metrics on Logback, when Micrometer is present: the same names as on
 * Log4j2.
 */
@NullMarked
package dev.safedefaults.logging.logback.actuate;

import org.jspecify.annotations.NullMarked;
