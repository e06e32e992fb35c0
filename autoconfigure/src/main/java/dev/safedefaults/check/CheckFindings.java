package dev.safedefaults.check;

import java.util.List;

/**
 * The check pipeline's own finding: a check that failed or timed out.
 */
public final class CheckFindings implements FindingDeclarations {

	/**
	 * A check threw or did not finish in time (the runner raises it, never the check).
	 */
	public static final FindingType CHECKS_FAILED = FindingType.declare("checks.failed", Severity.WARNING,
			"A check threw an exception or did not finish in time; what it looks for was not checked.",
			"The check %s; what it looks for was not checked.",
			"Report it with the exception named in the message; silence it with "
					+ "safe-defaults.checks.disabled=checks.failed.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(CHECKS_FAILED);
	}

}
