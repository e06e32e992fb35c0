package dev.safedefaults.logging.logback;

import dev.safedefaults.logging.stop.Unwritten;

/**
 * A queue of log events in front of an output, as the stop sees it: each appender the
 * starter wrapped ({@link CountingAsyncAppender}), which {@link LogbackShutdown} drains
 * and counts and {@link LogbackLastLine} writes past.
 *
 * @param <O> the type of the output behind the queue
 */
interface LogQueue<O> {

	/**
	 * Waits until every queued event has been handed to the output, or the deadline.
	 * @param deadline in {@link System#nanoTime()}
	 * @return true when nothing is left
	 */
	boolean awaitEmpty(long deadline);

	/**
	 * Counts the events queued or being written.
	 * @return the events not written yet, WARN and ERROR counted apart
	 */
	Unwritten backlog();

	/**
	 * The output behind the queue, to write the last line to directly.
	 * @return the output
	 */
	O output();

}
