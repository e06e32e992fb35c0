package dev.safedefaults.stuckrequests;

import org.jspecify.annotations.Nullable;

/**
 * One servlet request in flight: its thread, when it began and the endpoint it came in
 * on, each noted on the request's own thread while it runs; once examined, what it waits
 * for; and the last HTTP destination its thread asked the JVM's proxy selector about
 * (host and port only). The watch reads these from its own thread and never the servlet
 * request, which the container recycles for another request once this one ends.
 * <p>
 * An asynchronous request (its handler returned, its response not complete) has no thread
 * of its own: while a {@code Callable} Spring MVC runs for it works, that
 * {@code Callable}'s thread is the one to examine; otherwise none the watch can see.
 */
public final class InFlightRequest {

	private final Thread thread;

	private final long startNanos;

	private final @Nullable String method;

	private volatile @Nullable String handlerPattern;

	private volatile @Nullable String destination;

	private volatile @Nullable Wait waitingOn;

	private volatile boolean async;

	private volatile CallableState callable = CallableState.NONE;

	private volatile @Nullable Thread worker;

	private volatile @Nullable Object queuedTask;

	/**
	 * Guards {@link #onItsThread} and {@link #interrupted}: the watch interrupts the
	 * request's thread while holding it, and the request's thread, leaving, takes it.
	 */
	private final Object interruptLock = new Object();

	/** The request still runs on its own thread (its handler has not returned). */
	private boolean onItsThread = true;

	/** The watch interrupted the request's thread. */
	private boolean interrupted;

	private volatile DeadlineOutcome deadline = DeadlineOutcome.NOT_REACHED;

	/** When the watch last examined it past the deadline; its start before. */
	private volatile long deadlineChecked;

	/** What the deadline did to the request. */
	enum DeadlineOutcome {

		/** Not past it, or it is off, or the request is asynchronous. */
		NOT_REACHED,

		/** Past it: its thread was interrupted. */
		INTERRUPTED,

		/** Past it, in a wait an interrupt does not end: left alone. */
		CANNOT_END

	}

	/** Where a {@code Callable} Spring MVC runs for the request stands. */
	enum CallableState {

		/** None was returned: the work runs where the watch cannot see it. */
		NONE,

		/** Submitted to Spring MVC's async executor, not yet started. */
		QUEUED,

		/** Running on a thread of that executor. */
		RUNNING,

		/** Returned; the response is written on a dispatch the watch does not follow. */
		RETURNED

	}

	InFlightRequest(Thread thread, long startNanos, @Nullable String method) {
		this.thread = thread;
		this.startNanos = startNanos;
		this.deadlineChecked = startNanos;
		this.method = method;
	}

	/**
	 * The thread the request began on.
	 * @return the thread
	 */
	Thread thread() {
		return this.thread;
	}

	/**
	 * The thread that works for the request now: its own until its handler returns, then,
	 * for an asynchronous request, the thread of a running {@code Callable}.
	 * @return the thread, or {@code null} when the watch can see none
	 */
	@Nullable Thread runningOn() {
		return this.async ? this.worker : this.thread;
	}

	boolean isAsync() {
		return this.async;
	}

	/** Its handler returned and the response is not complete. */
	void wentAsync() {
		this.async = true;
	}

	CallableState callable() {
		return this.callable;
	}

	void callableQueued(Object task) {
		this.queuedTask = task;
		this.callable = CallableState.QUEUED;
	}

	@Nullable Object queuedTask() {
		return this.queuedTask;
	}

	void callableRunning(Thread worker) {
		this.queuedTask = null;
		this.worker = worker;
		this.callable = CallableState.RUNNING;
	}

	void callableReturned() {
		this.callable = CallableState.RETURNED;
		this.worker = null;
	}

	@Nullable Thread worker() {
		return this.worker;
	}

	long startNanos() {
		return this.startNanos;
	}

	/**
	 * The method and the handler's pattern the request came in on, as noted on its own
	 * thread: a pattern ({@code /api/orders/{id}}), never the path, which may carry an id
	 * or a token.
	 * @return the endpoint, empty when unknown
	 */
	String endpoint() {
		if (this.method == null) {
			return "";
		}
		String pattern = this.handlerPattern;
		return this.method + " " + ((pattern != null) ? pattern : "(no handler chosen yet)");
	}

	/**
	 * Notes the handler's pattern Spring MVC chose for the request; called on the
	 * request's thread. The first one is kept: a forward is still the request that came
	 * in.
	 * @param pattern the pattern
	 */
	void handlerChosen(String pattern) {
		if (this.handlerPattern == null) {
			this.handlerPattern = pattern;
		}
	}

	@Nullable String destination() {
		return this.destination;
	}

	void destination(String destination) {
		this.destination = destination;
	}

	/**
	 * Interrupts the request's own thread, once, if the request still runs on it; called
	 * by the watch. Never reaches a request that has left its thread: the request's
	 * thread marks that it leaves under the same lock ({@link #leftItsThread}), so the
	 * interrupt lands before it leaves, and it clears the interrupt as it does.
	 * @return {@code true} when the thread was interrupted now
	 */
	boolean interrupt() {
		synchronized (this.interruptLock) {
			if (!this.onItsThread || this.interrupted) {
				return false;
			}
			this.interrupted = true;
			this.thread.interrupt();
			this.deadline = DeadlineOutcome.INTERRUPTED;
			return true;
		}
	}

	/**
	 * The request leaves its thread (it ended, or its handler returned and it goes on
	 * asynchronously): called on that thread, as the last thing the request does on it.
	 * An interrupt the watch caused is cleared, so the thread's next request never sees
	 * it.
	 */
	void leftItsThread() {
		boolean caused;
		synchronized (this.interruptLock) {
			this.onItsThread = false;
			caused = this.interrupted;
		}
		if (caused) {
			Thread.interrupted();
		}
	}

	DeadlineOutcome deadline() {
		return this.deadline;
	}

	/** Past the deadline in a wait an interrupt does not end. */
	void cannotEnd() {
		this.deadline = DeadlineOutcome.CANNOT_END;
	}

	long deadlineChecked() {
		return this.deadlineChecked;
	}

	void deadlineChecked(long nanos) {
		this.deadlineChecked = nanos;
	}

	/**
	 * What the request waits for, once examined.
	 * @return the wait, {@code null} before the request was examined
	 */
	@Nullable Wait waitingOn() {
		return this.waitingOn;
	}

	/**
	 * Records what the request waits on.
	 * @param wait what it waits on
	 */
	void examined(Wait wait) {
		this.waitingOn = wait;
	}

}
