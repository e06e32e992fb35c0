/**
 * The logging promise on Logback, when the application keeps it: its own appenders
 * wrapped behind bounded queues that discard and count INFO and below when full (never
 * WARN or ERROR), without caller data, drained within the shutdown timeout at a stop.
 */
@NullMarked
package dev.safedefaults.logging.logback;

import org.jspecify.annotations.NullMarked;
