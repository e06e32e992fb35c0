/**
 * The logging metrics on Log4j2, when Micrometer is present.
 */
@NullMarked
package dev.safedefaults.logging.log4j2.actuate;

import org.jspecify.annotations.NullMarked;
