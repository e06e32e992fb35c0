package dev.safedefaults;

/**
 * The threads the starter starts for itself (the stuck-request watch, the deferred
 * checks, the storm detector, the logging queues' workers and the stop's helpers). They
 * are told apart from the application's so that the log never makes them wait: when a log
 * queue is full, an event logged on one of them is dropped and counted at once instead of
 * waiting for room (issue 49), so that the starter keeps watching while the log output is
 * stalled. Telling them apart costs an {@code instanceof}, asked only on a full queue.
 */
public final class StarterThreads {

	private StarterThreads() {
	}

	/**
	 * A daemon thread of the starter's, not started.
	 * @param task what it runs
	 * @param name its name, {@code safe-defaults-…}
	 * @return the thread
	 */
	public static Thread newThread(Runnable task, String name) {
		Thread thread = new StarterThread(task, name);
		thread.setDaemon(true);
		return thread;
	}

	/**
	 * Whether the calling thread is one of the starter's.
	 * @return true on a thread from {@link #newThread}
	 */
	public static boolean isCurrentThread() {
		return Thread.currentThread() instanceof StarterThread;
	}

	private static final class StarterThread extends Thread {

		StarterThread(Runnable task, String name) {
			super(task, name);
		}

	}

}
