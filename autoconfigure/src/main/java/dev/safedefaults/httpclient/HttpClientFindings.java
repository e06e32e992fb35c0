package dev.safedefaults.httpclient;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * The finding of the converters set every client kind shares, declared once.
 */
public final class HttpClientFindings implements FindingDeclarations {

	/** Args: what was missing, the Spring Framework version. */
	static final FindingType SHARED_CONVERTERS_INCOMPLETE = FindingType.declare(
			"httpclient.shared-converters-incomplete", WARNING,
			"The starter's shared converters set could not do what the clients' usual converters can (a JSON "
					+ "object, text or bytes written and read back, or a converter the application brought), so it "
					+ "was not used: every client kept its usual converters and no call lost one.",
			"The shared converters set, built at startup on Spring Framework %2$s, lacked: %1$s. Feign clients got "
					+ "their usual converters (built once) and clients from Boot's RestClient.Builder and HTTP "
					+ "service groups Boot's own; nothing was lost, but the converters are rebuilt per client again.",
			"Report it to safe-defaults with the Boot and Spring Framework versions; to silence it meanwhile set "
					+ "safe-defaults.feign.enabled=false and safe-defaults.restclient.enabled=false.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(SHARED_CONVERTERS_INCOMPLETE);
	}

}
