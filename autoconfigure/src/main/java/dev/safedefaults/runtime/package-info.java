/**
 * The runtime storm detectors (incidents 1, 3 and 8): exception storms through the JDK's
 * flight recorder and stack traces printed to {@code System.err}, and
 * {@link dev.safedefaults.runtime.RuntimeFindings}.
 */
@NullMarked
package dev.safedefaults.runtime;

import org.jspecify.annotations.NullMarked;
