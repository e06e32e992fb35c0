/**
 * Shared Feign converters built once (incident 1), the startup checks, the run-time
 * observers of what the codecs build and
 * {@link dev.safedefaults.httpclient.feign.FeignFindings}.
 */
@NullMarked
package dev.safedefaults.httpclient.feign;

import org.jspecify.annotations.NullMarked;
