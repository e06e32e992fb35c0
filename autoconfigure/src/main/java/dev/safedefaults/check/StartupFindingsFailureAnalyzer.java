package dev.safedefaults.check;

import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup that {@code safe-defaults.checks.fail-on=warning} stopped: which
 * findings, and the three ways out.
 */
class StartupFindingsFailureAnalyzer extends AbstractFailureAnalyzer<StartupFindingsException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, StartupFindingsException cause) {
		String description = "safe-defaults.checks.fail-on is 'warning' and the startup checks raised these findings:"
				+ cause.getFindings().stream().map((f) -> "\n  - " + f.toLogLine()).collect(Collectors.joining());
		String action = "Fix what each finding names, silence an id with safe-defaults.checks.disabled=<id>, "
				+ "or set safe-defaults.checks.fail-on=none to report findings without failing startup.";
		return new FailureAnalysis(description, action, cause);
	}

}
