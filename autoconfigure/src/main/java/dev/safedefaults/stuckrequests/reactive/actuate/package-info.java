/**
 * The reactive stuck-request watch's metric, with Micrometer.
 */
@NullMarked
package dev.safedefaults.stuckrequests.reactive.actuate;

import org.jspecify.annotations.NullMarked;
