/**
 * HTTP clients (incident 1): one converters set, built once at startup without the
 * defaults, shared by every client kind ({@code feign} and {@code restclient}
 * sub-packages).
 */
@NullMarked
package dev.safedefaults.httpclient;

import org.jspecify.annotations.NullMarked;
