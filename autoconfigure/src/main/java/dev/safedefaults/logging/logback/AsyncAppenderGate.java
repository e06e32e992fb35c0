package dev.safedefaults.logging.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AsyncAppenderBase;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import dev.safedefaults.logging.LogOutputStall;

/**
 * An application's own {@code AsyncAppender} (Logback's, or another
 * {@link AsyncAppenderBase}), kept as it is, its queue, its thread and its settings,
 * behind a gate that bounds the one wait it has no bound for (issue 49): with
 * {@code neverBlock=false} (Logback's default) a full queue makes every WARN and ERROR
 * caller wait for as long as its output stalls. An event that would wait there waits here
 * instead, parked, at most the queue-full timeout, for a free slot
 * ({@link AsyncAppenderBase#getRemainingCapacity()}); when one has waited it all, the
 * output is stalled ({@link LogOutputStall}): until the queue has drained to half, WARN
 * and ERROR are dropped at once and counted, then the next event that passes writes first
 * the line that says what was lost. No queue of its own: never a queue behind a queue.
 * Events the application's appender would drop itself (INFO past its discarding
 * threshold, or everything with {@code neverBlock=true}) pass through untouched.
 * <p>
 * What this cannot bound: an event that saw a free slot and lost it to another thread
 * before the appender took it waits in the appender, as before.
 */
public final class AsyncAppenderGate extends UnsynchronizedAppenderBase<ILoggingEvent> {

	private final AsyncAppenderBase<ILoggingEvent> delegate;

	private final WrappingSettings settings;

	private final LogOutputStall stall;

	/**
	 * Puts a gate in front of an application's asynchronous appender.
	 * @param delegate the application's appender, started or not, kept as it is
	 * @param settings the application context's settings
	 */
	public AsyncAppenderGate(AsyncAppenderBase<ILoggingEvent> delegate, WrappingSettings settings) {
		this.delegate = delegate;
		this.settings = settings;
		this.stall = CountingAsyncAppender.output(delegate, settings);
		setName(delegate.getName());
		if (delegate.getContext() != null) {
			setContext(delegate.getContext());
		}
	}

	/**
	 * The application's appender.
	 * @return the appender behind the gate
	 */
	public AsyncAppenderBase<ILoggingEvent> getDelegate() {
		return this.delegate;
	}

	@Override
	protected void append(ILoggingEvent event) {
		if ((this.stall.isStalled() || this.stall.hasLost()) && isHalfEmpty()) {
			CountingAsyncAppender.summarise(this.stall, getContext(), this.delegate);
		}
		if (!this.settings.discard() || !wouldWait(event)) {
			this.delegate.doAppend(event);
			return;
		}
		long wait = this.stall.waitNanos();
		if (wait > 0) {
			if (this.stall.awaitRoom(wait, () -> this.delegate.getRemainingCapacity() > 0)) {
				this.delegate.doAppend(event);
				return;
			}
			this.stall.waitedTheWholeBound();
		}
		if (!event.getLevel().isGreaterOrEqual(Level.WARN)) {
			this.settings.countDiscarded();
			return;
		}
		this.stall.dropped(CountingAsyncAppender.dropped(event));
	}

	/**
	 * Whether the application's appender would make the caller wait: its queue full, and
	 * the event not one it drops itself.
	 */
	private boolean wouldWait(ILoggingEvent event) {
		if (this.delegate.getRemainingCapacity() > 0 || this.delegate.isNeverBlock()) {
			return false;
		}
		// Below WARN, Logback's AsyncAppender drops an event once fewer slots than its
		// discarding threshold are free, unless that threshold is 0.
		return event.getLevel().isGreaterOrEqual(Level.WARN) || this.delegate.getDiscardingThreshold() == 0;
	}

	private boolean isHalfEmpty() {
		return this.delegate.getRemainingCapacity() >= this.delegate.getQueueSize() / 2;
	}

	@Override
	public void start() {
		if (!this.delegate.isStarted()) {
			this.delegate.start();
		}
		super.start();
	}

	/**
	 * Stops the gate and the application's appender (a reset, a reconfiguration, or the
	 * logger context's stop, which reach only the appenders attached to loggers).
	 */
	@Override
	public void stop() {
		if (!isStarted()) {
			return;
		}
		super.stop();
		this.settings.stalls().remove(this.stall);
		this.delegate.stop();
	}

	/**
	 * Another gate took this one's place: the application's appender stays started.
	 */
	void retire() {
		super.stop();
		this.settings.stalls().remove(this.stall);
	}

	WrappingSettings settings() {
		return this.settings;
	}

	@Override
	public String toString() {
		return "AsyncAppenderGate[" + this.delegate + "]";
	}

}
