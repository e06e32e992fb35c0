/**
 * The logging promise on Log4j2, the starter's default route: all-async loggers and the
 * ring buffer size ({@code Log4jDefaultsPropertySource}, read by Log4j when it starts),
 * the counting queue-full policy, no caller location, {@code %throttledEx} as a Log4j
 * pattern converter, the checks of the Log4j configuration, and the drain of the ring
 * buffer at a stop.
 */
@NullMarked
package dev.safedefaults.logging.log4j2;

import org.jspecify.annotations.NullMarked;
