/**
 * What happens at a stop and at a failed start, on either route: the starter's bounded
 * stop in place of Boot's logging shutdown handler
 * ({@link dev.safedefaults.logging.stop.LoggingShutdownEnvironmentPostProcessor},
 * {@link dev.safedefaults.logging.stop.BoundedLoggingStop}), the drain of a failed start
 * ({@link dev.safedefaults.logging.stop.FailedStartLogDrain}), the count of what could
 * not be written ({@link dev.safedefaults.logging.stop.Unwritten}) and the last line that
 * says so ({@link dev.safedefaults.logging.stop.LastLineWriter}). Each route's part is a
 * {@link dev.safedefaults.logging.stop.LoggingStopRoute}, listed in
 * {@code META-INF/spring.factories}. Imports the feature's root, no other sub-package.
 */
@NullMarked
package dev.safedefaults.logging.stop;

import org.jspecify.annotations.NullMarked;
