/**
 * The stuck-request watch's metric, when Micrometer is present.
 */
@NullMarked
package dev.safedefaults.stuckrequests.actuate;

import org.jspecify.annotations.NullMarked;
