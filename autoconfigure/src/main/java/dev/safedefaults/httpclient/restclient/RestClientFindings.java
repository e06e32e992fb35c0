package dev.safedefaults.httpclient.restclient;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of the RestClient feature (incident 1 in Spring's own client API),
 * declared once.
 */
public final class RestClientFindings implements FindingDeclarations {

	/** Args: builders handed out, clients built, callers with their counts. */
	static final FindingType PER_REQUEST_BUILD = FindingType.declare("restclient.per-request-build", WARNING,
			"While the application serves traffic, Boot's RestClient.Builder keeps being handed out or built: a "
					+ "client is assembled per request, with a new HTTP client and, with Boot's defaults, every "
					+ "converter (incident 1 in Spring's own client API; measured: 140× to 170× fewer calls per second "
					+ "than a client built once).",
			"Since the application was ready, Boot's RestClient.Builder was handed out %1$d times and %2$d clients "
					+ "were built from it (callers: %3$s): every call assembles a client again, with a new HTTP client (its own connections) and its converters: "
					+ "measured, 140× to 170× fewer calls per second than a client built once.",
			"Build the client once: inject RestClient.Builder into a singleton's constructor and keep the RestClient "
					+ "it builds in a field (or declare an @HttpExchange interface in an @ImportHttpServices group); "
					+ "never call builder.build(), ObjectProvider<RestClient.Builder>.getObject() or "
					+ "RestClient.create() in a request handler.");

	/** Args: none. */
	static final FindingType JSON_CONVERTER_LOST = FindingType.declare("restclient.json-converter-lost", WARNING,
			"An HTTP service group whose interfaces send or receive objects has no converter that reads or writes "
					+ "JSON: a converters configurer switched Framework's defaults off and brought no JSON converter "
					+ "(spring-framework #36747); every call fails with 'no suitable HttpMessageConverter'.",
			"Its interfaces send or receive objects, but its client has no converter for JSON: a converters "
					+ "configurer (configureMessageConverters or messageConverters) switched the defaults off and "
					+ "added none; every call with an object body or result fails.",
			"Add the JSON converter in that configurer (withJsonConverter(new JacksonJsonHttpMessageConverter("
					+ "jsonMapper))), or remove the configurer and let the group use the starter's shared set "
					+ "(safe-defaults.restclient.enabled=true).");

	/** Args: the default converters found, how they got there. */
	static final FindingType DEFAULT_CONVERTERS = FindingType.declare("restclient.default-converters", INFO,
			"A RestClient or HTTP service group carries Framework's default converters (resources, XML, every "
					+ "format on the class path) because the starter's shared set is off or overridden for it.",
			"Its converters include the defaults (%1$s): %2$s; every client built assembles them again (measured per build: up to 2.7× the cost of a build with the "
					+ "shared set).",
			"Set safe-defaults.restclient.enabled=true, or remove the registerDefaults() call or converters "
					+ "configurer that brings them; add a converter the client needs as an HttpMessageConverter bean "
					+ "or a ClientHttpMessageConvertersCustomizer.");

	/** Args: none; the whole feature is off. */
	static final FindingType DEFAULTS_FOR_EVERY_CLIENT = DEFAULT_CONVERTERS.because(
			"safe-defaults.restclient.enabled=false: every RestClient built from Boot's builder, and every HTTP "
					+ "service group, assembles Framework's default converters again on each build.",
			"Remove safe-defaults.restclient.enabled=false unless a client needs a default converter; add that "
					+ "converter as an HttpMessageConverter bean instead.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(PER_REQUEST_BUILD, JSON_CONVERTER_LOST, DEFAULT_CONVERTERS);
	}

}
