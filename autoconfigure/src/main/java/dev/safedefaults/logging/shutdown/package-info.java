/**
 * The logging stop (issue 16): queued events written within a timeout at a graceful stop,
 * what is not written counted in one last line, and never a JVM held by a blocked stdout.
 */
@NullMarked
package dev.safedefaults.logging.shutdown;

import org.jspecify.annotations.NullMarked;
