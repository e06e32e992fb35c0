package dev.safedefaults.testsupport;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Makes every skip visible in the build's output: a test or test class that did not run
 * (disabled, or aborted by an assumption such as "no server there") prints
 * {@code SKIPPED: <test> — <reason>} on standard output, and each run ends with the
 * number of them, zero included (so its absence would show that this report is not
 * registered). Surefire and failsafe print test output on the console, and CI shows it.
 * Registered through {@code META-INF/services} for every module whose tests use
 * test-support.
 */
public final class SkippedTestsReport implements TestExecutionListener {

	/** How each line starts, for a reader or a script searching the build's output. */
	public static final String PREFIX = "SKIPPED: ";

	private final AtomicInteger skipped = new AtomicInteger();

	@Override
	public void testPlanExecutionStarted(TestPlan testPlan) {
		this.skipped.set(0);
	}

	@Override
	public void executionSkipped(TestIdentifier test, String reason) {
		report(test, reason);
	}

	@Override
	public void executionFinished(TestIdentifier test, TestExecutionResult result) {
		if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
			report(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
		}
	}

	@Override
	public void testPlanExecutionFinished(TestPlan testPlan) {
		System.out.println(PREFIX + this.skipped.get() + " test(s) or test class(es) did not run in this test run"
				+ ((this.skipped.get() > 0) ? " (listed above)" : ""));
	}

	private void report(TestIdentifier test, String reason) {
		this.skipped.incrementAndGet();
		System.out.println(PREFIX + name(test) + " — " + reason);
	}

	private static String name(TestIdentifier test) {
		TestSource source = test.getSource().orElse(null);
		if (source instanceof MethodSource method) {
			return method.getClassName() + "#" + method.getMethodName();
		}
		if (source instanceof ClassSource type) {
			return type.getClassName();
		}
		return test.getDisplayName();
	}

}
