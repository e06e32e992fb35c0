/**
 * How stack traces are throttled, on either route: the settings and the elision count
 * every {@code %throttledEx} converter reads
 * ({@link dev.safedefaults.logging.stacktrace.StackTraceThrottling}, registered per
 * context by {@link dev.safedefaults.logging.stacktrace.StackTraceThrottleConfigurer}),
 * and the rendering itself
 * ({@link dev.safedefaults.logging.stacktrace.ThrottledStackTraces}: each trace printed
 * in full, its secrets masked, or replaced by one line once its kind has been seen often
 * enough). Imports the feature's root, no other sub-package.
 */
@NullMarked
package dev.safedefaults.logging.stacktrace;

import org.jspecify.annotations.NullMarked;
