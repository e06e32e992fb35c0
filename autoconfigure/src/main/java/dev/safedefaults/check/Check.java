package dev.safedefaults.check;

import java.util.List;

/**
 * Looks at the application for one trap and returns what it found. Features contribute
 * checks as beans; the {@link StartupCheckRunner} runs them once, after every singleton
 * exists and before the web server takes traffic. A check that throws becomes a
 * {@code checks.failed} finding: it never breaks startup.
 * <p>
 * Startup checks must be cheap (no I/O). A check that needs I/O, such as a database
 * query, returns {@code true} from {@link #deferred()}: it then runs off the startup
 * path, with a timeout, and its findings are published when it is done.
 */
@FunctionalInterface
public interface Check {

	/**
	 * Runs the check.
	 * @return the findings, empty when all is well
	 * @throws Exception when the check itself fails; reported as {@code checks.failed}
	 */
	List<Finding> run() throws Exception;

	/**
	 * The name of this check, used as the source of its findings in the
	 * {@link FindingsStore} and as the subject of a {@code checks.failed} finding.
	 * @return the name, by default the class name
	 */
	default String name() {
		return getClass().getName();
	}

	/**
	 * Whether this check needs I/O and must run off the startup path.
	 * @return {@code true} to run deferred, with a timeout
	 */
	default boolean deferred() {
		return false;
	}

}
