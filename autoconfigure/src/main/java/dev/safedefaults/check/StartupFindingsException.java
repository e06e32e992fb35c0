package dev.safedefaults.check;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown at startup when {@code safe-defaults.checks.fail-on=warning} and a startup check
 * raised a warning. Its message lists the startup findings.
 */
public class StartupFindingsException extends RuntimeException {

	private final List<Finding> findings;

	/**
	 * Creates the exception.
	 * @param findings the startup findings
	 */
	public StartupFindingsException(List<Finding> findings) {
		super("safe-defaults.checks.fail-on=warning and the startup checks raised warnings:"
				+ findings.stream().map((f) -> "\n  - " + f.toLogLine()).collect(Collectors.joining()));
		this.findings = List.copyOf(findings);
	}

	/**
	 * Returns the startup findings that failed startup.
	 * @return the findings
	 */
	public List<Finding> getFindings() {
		return this.findings;
	}

}
