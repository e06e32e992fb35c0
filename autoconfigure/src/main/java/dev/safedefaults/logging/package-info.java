/**
 * The logging promise (incidents 2, 3, 6 and 8), the base every part of it reads: the
 * properties ({@link dev.safedefaults.logging.LoggingDefaultsProperties}), the findings
 * ({@link dev.safedefaults.logging.LoggingFindings}), the switch of the logging defaults,
 * the one decision of which logging system runs
 * ({@link dev.safedefaults.logging.Log4j2LoggingSystemChoice},
 * {@link dev.safedefaults.logging.LogbackLoggingSystemChoice}) and the check of it, and
 * Boot's logging shutdown switch
 * ({@link dev.safedefaults.logging.LoggingShutdownHookSwitch}). Two stories, each a
 * sub-package that imports this one and no other: {@code stop}, what happens at a stop
 * and at a failed start, and {@code stacktrace}, how stack traces are throttled. Each
 * route is a sub-package that imports this one and the stories, never the other route:
 * {@code log4j2} and {@code logback}.
 */
@NullMarked
package dev.safedefaults.logging;

import org.jspecify.annotations.NullMarked;
