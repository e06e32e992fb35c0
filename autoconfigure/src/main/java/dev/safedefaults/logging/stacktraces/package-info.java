/**
 * Throttled stack traces ({@code %throttledEx}, incident 6): the first few of a kind in
 * full, one line for the repeats.
 */
@NullMarked
package dev.safedefaults.logging.stacktraces;

import org.jspecify.annotations.NullMarked;
