package dev.safedefaults.logging;

import java.time.Instant;

import dev.safedefaults.DurationText;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;

/**
 * Publishes {@code logging.output-stalled} for each stalled output whenever an output
 * stalls or moves again, and clears it when none is stalled. Called on the thread that
 * saw the change: publishing is a map update, it never logs; of two changes seen at once,
 * the reading taken last wins ({@link FindingsStore#update}).
 */
final class LogStallFindings implements Runnable {

	/** The findings' source in the store. */
	static final String SOURCE = "logging.stalls";

	private final FindingsStore store;

	private final LogStalls stalls;

	/**
	 * Publishes the stalls' findings from now on.
	 * @param store the findings store
	 * @param stalls the application context's stalls
	 */
	LogStallFindings(FindingsStore store, LogStalls stalls) {
		this.store = store;
		this.stalls = stalls;
		stalls.onChange(this);
	}

	@Override
	public void run() {
		this.store.update(SOURCE, () -> this.stalls.stalled().stream().map(this::finding).toList());
	}

	private Finding finding(LogOutputStall output) {
		Instant since = output.stalledSince();
		return LoggingFindings.OUTPUT_STALLED.raise(output.name(), output.name(), DurationText.of(this.stalls.bound()),
				(since != null) ? since : "a moment ago");
	}

}
