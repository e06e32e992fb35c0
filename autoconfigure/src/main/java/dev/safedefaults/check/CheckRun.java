package dev.safedefaults.check;

import org.jspecify.annotations.Nullable;

/**
 * What became of one check in this application: for the endpoint and the startup log.
 *
 * @param name the check's name
 * @param deferred whether it runs off the startup path
 * @param status where it is
 * @param findings how many findings it published (after silencing), 0 until done
 * @param millis how long it took, {@code null} until done
 */
public record CheckRun(String name, boolean deferred, Status status, int findings, @Nullable Double millis) {

	/** Where a check is. */
	public enum Status {

		/** A deferred check waiting for or running on its thread. */
		RUNNING,

		/** It ran and published its findings. */
		DONE,

		/** It threw or timed out: reported as {@code checks.failed}. */
		FAILED

	}

	static CheckRun startup(String name, boolean failed, int findings, double millis) {
		return new CheckRun(name, false, failed ? Status.FAILED : Status.DONE, findings, millis);
	}

	static CheckRun running(String name) {
		return new CheckRun(name, true, Status.RUNNING, 0, null);
	}

	CheckRun done(boolean failed, int findings, double millis) {
		return new CheckRun(this.name, this.deferred, failed ? Status.FAILED : Status.DONE, findings, millis);
	}

}
