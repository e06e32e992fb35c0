/**
 * Timeouts by default on every HTTP client Boot builds (incident 6: a downstream that
 * stops answering must never take the service down for good): Boot's own settings
 * {@code spring.http.clients.connect-timeout} and {@code read-timeout}, at the lowest
 * precedence, and the check that finds a client or group left without one.
 */
@NullMarked
package dev.safedefaults.httpclient.timeouts;

import org.jspecify.annotations.NullMarked;
