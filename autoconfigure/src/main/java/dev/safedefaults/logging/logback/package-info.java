/**
 * The logging defaults on Logback, when the application keeps it as Boot's logging
 * system: the checks of its configuration and the {@code %throttledEx} converter.
 */
@NullMarked
package dev.safedefaults.logging.logback;

import org.jspecify.annotations.NullMarked;
