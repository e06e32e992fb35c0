package dev.safedefaults.httpclient.timeouts;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of the HTTP client timeouts feature (incident 6), declared once.
 */
public final class HttpClientTimeoutsFindings implements FindingDeclarations {

	/**
	 * Args: the timeout and where it comes from, the property to set, what the value does
	 * to a call.
	 */
	static final FindingType NO_TIMEOUT = FindingType.declare("http-clients.no-timeout", WARNING,
			"A client Boot builds (RestClient.Builder, RestTemplateBuilder, WebClient.Builder) or an HTTP service group "
					+ "has no connect or read timeout, or one that bounds nothing (0, negative, or above 1h): a downstream "
					+ "that accepts connections and never answers holds every calling request thread for ever, and the "
					+ "service stops answering, its other endpoints too (incident 6); a negative read timeout on the "
					+ "JDK client fails every call instead.",
			"Its %1$s: %3$s.",
			"Set %2$s to a bounded value (at most 1h; the starter's defaults are 10s connect, 60s read), or remove "
					+ "the setting that makes it none so that safe-defaults.http-client-timeouts.* applies.");

	/**
	 * Args: as {@link #NO_TIMEOUT}; the application's HttpClientSettings bean sets none.
	 */
	static final FindingType NO_TIMEOUT_IN_SETTINGS_BEAN = NO_TIMEOUT.because(
			"Its %1$s: the application's HttpClientSettings bean replaces Boot's (and the starter's default), and "
					+ "%3$s.",
			"Give the HttpClientSettings bean a timeout (withTimeouts(connect, read)), or remove the bean and set "
					+ "%2$s.");

	/** Args: as {@link #NO_TIMEOUT}; the starter's default is switched off. */
	static final FindingType NO_TIMEOUT_DEFAULT_OFF = NO_TIMEOUT.because(
			"Its %1$s: safe-defaults.http-client-timeouts.enabled=false and Boot sets no timeout, so %3$s.",
			"Set %2$s, or remove safe-defaults.http-client-timeouts.enabled=false.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(NO_TIMEOUT);
	}

}
