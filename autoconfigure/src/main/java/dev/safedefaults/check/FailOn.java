package dev.safedefaults.check;

/**
 * What makes startup fail ({@code safe-defaults.checks.fail-on}). Findings raised later,
 * at runtime, never stop the application.
 */
public enum FailOn {

	/** Findings are reported, never enforced. */
	NONE,

	/**
	 * Startup fails when a startup check raises a warning (for a strict test suite or
	 * CI).
	 */
	WARNING

}
