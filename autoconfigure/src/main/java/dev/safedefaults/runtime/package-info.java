/**
 * The runtime feature's base (incidents 1, 3 and 8): how the throwables of a running JVM
 * are seen. How many it creates and, for a short window, where they are thrown
 * ({@link dev.safedefaults.runtime.ThrowableSource}, on the JDK's flight recorder:
 * {@link dev.safedefaults.runtime.JfrThrowableSource}; grouped by
 * {@link dev.safedefaults.runtime.ThrowSites}), and the stack traces printed to
 * {@code System.err} ({@link dev.safedefaults.runtime.StderrStackTraceCounter},
 * {@link dev.safedefaults.runtime.StackTraceCounts}). Nothing here judges what it sees:
 * the sub-package {@code storm} does, and imports this one.
 */
@NullMarked
package dev.safedefaults.runtime;

import org.jspecify.annotations.NullMarked;
