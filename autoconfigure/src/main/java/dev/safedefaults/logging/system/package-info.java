/**
 * Which logging system Boot runs: what the logging defaults, the shutdown handler and the
 * stack-trace throttling all depend on. A package of its own so that they all read it
 * without depending on each other.
 */
@NullMarked
package dev.safedefaults.logging.system;

import org.jspecify.annotations.NullMarked;
