package dev.safedefaults.check;

/**
 * How much a {@link Finding} matters. Neither level ever takes the application down: a
 * warning is reported, not enforced (unless
 * {@code safe-defaults.checks.fail-on=warning}).
 */
public enum Severity {

	/** Worth knowing; costs little or nothing today. */
	INFO,

	/**
	 * A trap that costs throughput, memory or data under load, as in one of the
	 * incidents.
	 */
	WARNING

}
