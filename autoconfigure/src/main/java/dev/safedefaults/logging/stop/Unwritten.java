package dev.safedefaults.logging.stop;

/**
 * Events not written at a stop, whichever logging system queued them.
 *
 * @param total all of them
 * @param warnOrError those at WARN, ERROR or FATAL
 */
public record Unwritten(long total, long warnOrError) {

	/** Nothing unwritten. */
	public static final Unwritten NONE = new Unwritten(0, 0);

	/**
	 * Adds another count.
	 * @param other the other
	 * @return the sum
	 */
	public Unwritten plus(Unwritten other) {
		return new Unwritten(this.total + other.total, this.warnOrError + other.warnOrError);
	}

	/**
	 * The line operators grep for.
	 * @return {@code safe-defaults: N log events not written at shutdown (M WARN or ERROR)}
	 */
	public String line() {
		return "safe-defaults: " + this.total + " log events not written at shutdown (" + this.warnOrError
				+ " WARN or ERROR)";
	}

}
