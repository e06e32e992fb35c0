package dev.safedefaults.jdbc;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A database service the project's machines run (never a mock) that a test class needs:
 * on CI ({@value #CI_VARIABLE}{@code =true}, which {@code .ci/run} sets) or with its own
 * {@code -D<name>.required=true} a missing service is a failure; elsewhere the class is
 * skipped, and the skip report prints a {@code SKIPPED:} line with the reason, so a
 * developer's machine with only a JDK still runs the README's test command.
 */
final class MachineService {

	/** The environment variable {@code .ci/run} sets: on CI nothing may be skipped. */
	static final String CI_VARIABLE = "SAFE_DEFAULTS_CI";

	private MachineService() {
	}

	/**
	 * Fails or skips the calling test class when the service is missing.
	 * @param requiredProperty the system property that makes the service required outside
	 * CI
	 * @param missing what is missing and how to start it
	 */
	static void missing(String requiredProperty, String missing) {
		if (Boolean.getBoolean(requiredProperty) || Boolean.parseBoolean(System.getenv(CI_VARIABLE))) {
			fail(missing + "; required because " + requiredProperty + "=true or " + CI_VARIABLE + "=true");
		}
		abort(missing + "; skipped here, a failure on CI (" + requiredProperty + "=true or " + CI_VARIABLE + "=true)");
	}

}
