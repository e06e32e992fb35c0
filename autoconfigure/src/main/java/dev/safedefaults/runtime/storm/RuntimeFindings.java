package dev.safedefaults.runtime.storm;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.INFO;
import static dev.safedefaults.check.Severity.WARNING;

/**
 * Every finding of the runtime detectors (incidents 1, 3 and 8), declared once. Their
 * messages are composed by the detector from what it measured (the one argument).
 */
public final class RuntimeFindings implements FindingDeclarations {

	/** Args: the measured rate, thresholds and top sites. */
	public static final FindingType EXCEPTION_STORM = FindingType.declare("runtime.exception-storm", WARNING,
			"While the service runs, the JVM has been creating throwables faster than "
					+ "safe-defaults.runtime.exception-storm.per-second (or per-request) for longer than "
					+ "safe-defaults.runtime.sustained-for: each fills in a stack trace (incidents 1 and 3: up to "
					+ "half the CPU). Names the top throw sites from a recording of at most one second. Shown while "
					+ "the storm lasts.",
			"%1$s",
			"Stop creating exceptions on a path that runs all the time, at the sites named: look a class or resource "
					+ "up once and remember the answer, absent included (incident 1); check before parsing instead of "
					+ "catching, no exceptions for control flow (incident 3); build converters and factories once. If "
					+ "this rate is expected, raise safe-defaults.runtime.exception-storm.per-second or per-request.");

	/** Args: the measured rate, threshold and most frequent classes. */
	public static final FindingType STDERR_STACK_TRACES = FindingType.declare("runtime.stderr-stack-traces", WARNING,
			"Stack traces are being printed to System.err faster than "
					+ "safe-defaults.runtime.stderr-stack-traces.per-second: printStackTrace() holds the System.err "
					+ "lock for every line, so printing threads queue behind each other (incident 8). Names the most "
					+ "frequent exception classes. Shown while it lasts.",
			"%1$s",
			"Find the code that prints these exceptions (printStackTrace(), or a library or agent writing to "
					+ "System.err) and log them once through the logging framework, or fix what throws them: "
					+ "printStackTrace holds the System.err lock for every line, so printing threads queue behind "
					+ "each other (incident 8).");

	/** Args: the reason. */
	public static final FindingType JFR_UNAVAILABLE = FindingType.declare("runtime.jfr-unavailable", INFO,
			"This JVM has no usable flight recorder (no jdk.jfr module, or the recorder is switched off), so "
					+ "exception and System.err storms are not watched.",
			"Exception storms cannot be detected: %1$s.",
			"Run on a JDK, or a jlink image with the jdk.jfr module, whose flight recorder is on; or set "
					+ "safe-defaults.runtime.enabled=false.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(EXCEPTION_STORM, STDERR_STACK_TRACES, JFR_UNAVAILABLE);
	}

}
