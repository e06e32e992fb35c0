/**
 * Log4j2 defaults (incidents 2, 3 and 6): all-async loggers, the counting queue-full
 * policy, no caller location, the logging checks and
 * {@link dev.safedefaults.logging.LoggingFindings}.
 */
@NullMarked
package dev.safedefaults.logging;

import org.jspecify.annotations.NullMarked;
