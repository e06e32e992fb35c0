/**
 * Shared Feign converters built once (incident 1), the codec checks and
 * {@link dev.safedefaults.feign.FeignFindings}.
 */
@NullMarked
package dev.safedefaults.feign;

import org.jspecify.annotations.NullMarked;
