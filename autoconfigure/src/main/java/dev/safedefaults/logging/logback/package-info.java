/**
 * The logging promise on Logback, when the application keeps it as Boot's logging system:
 * its own appenders wrapped behind bounded queues that discard and count INFO and below
 * when full (never WARN or ERROR), without caller data, drained within the shutdown
 * timeout at a stop with the same last line as on Log4j2; the checks of its configuration
 * and the {@code %throttledEx} converter.
 */
@NullMarked
package dev.safedefaults.logging.logback;

import org.jspecify.annotations.NullMarked;
