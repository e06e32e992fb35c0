/**
 * The logging promise (incidents 2, 3, 6 and 8), what both routes share: the properties
 * ({@link dev.safedefaults.logging.LoggingDefaultsProperties}), the findings
 * ({@link dev.safedefaults.logging.LoggingFindings}), the one decision of which logging
 * system runs ({@link dev.safedefaults.logging.Log4j2LoggingSystemChoice},
 * {@link dev.safedefaults.logging.LogbackLoggingSystemChoice}) and the check of it, the
 * bounded stop ({@link dev.safedefaults.logging.BoundedLoggingStop}, each route's drain
 * through {@link dev.safedefaults.logging.LoggingStopRoute}) and the throttling of stack
 * traces ({@link dev.safedefaults.logging.StackTraceThrottling}). Each route is a
 * sub-package that imports this one, never the other: {@code log4j2} and {@code logback}.
 */
@NullMarked
package dev.safedefaults.logging;

import org.jspecify.annotations.NullMarked;
