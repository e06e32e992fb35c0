package dev.safedefaults.httpclient.webclient;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of the WebClient feature (incident 1 in Spring's reactive client),
 * declared once.
 */
public final class WebClientFindings implements FindingDeclarations {

	/** Args: builders handed out, what was built, callers with their counts. */
	static final FindingType PER_REQUEST_BUILD = FindingType.declare("webclient.per-request-build", WARNING,
			"While the application serves traffic, Boot's WebClient.Builder keeps being handed out or built: a "
					+ "client is assembled per request, and Boot's builder runs every CodecCustomizer on each build, "
					+ "so every build makes its codecs again (spring-framework #27325; incident 1 in Spring's reactive "
					+ "client; measured: 63× fewer calls per second than a client built once).",
			"Since the application was ready, Boot's WebClient.Builder was handed out %1$d times and %2$s (callers: "
					+ "%3$s). Measured, a client built per call made 63× fewer calls per second than one built "
					+ "once (about 0.45 ms more per call).",
			"Build the client once: inject WebClient.Builder into a singleton's constructor and keep the WebClient "
					+ "it builds in a field (or declare an @HttpExchange interface in an @ImportHttpServices group); "
					+ "pass what varies per request (URI, headers, attributes) on that one client. Never call "
					+ "builder.build(), builder.clone().build(), webClient.mutate().build() or "
					+ "ObjectProvider<WebClient.Builder>.getObject() in a request handler.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(PER_REQUEST_BUILD);
	}

}
