/**
 * {@code WebClient} (issue 52, incident 1 in Spring's reactive client): the clients built
 * from Boot's {@code WebClient.Builder} while the application serves traffic, counted and
 * named ({@code webclient.per-request-build}), as {@code RestClient}'s are.
 */
@NullMarked
package dev.safedefaults.httpclient.webclient;

import org.jspecify.annotations.NullMarked;
