/**
 * Shared Feign converters built once (incident 1), the codec checks and
 * {@link dev.safedefaults.httpclient.feign.FeignFindings}.
 */
@NullMarked
package dev.safedefaults.httpclient.feign;

import org.jspecify.annotations.NullMarked;
