/**
 * {@code RestClient} and HTTP service clients (incident 1 in Spring's own client API):
 * every client built from Boot's builder gets the shared converters set, the checks for
 * clients built per request and groups without JSON, and
 * {@link dev.safedefaults.httpclient.restclient.RestClientFindings}.
 */
@NullMarked
package dev.safedefaults.httpclient.restclient;

import org.jspecify.annotations.NullMarked;
