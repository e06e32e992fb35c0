package dev.safedefaults.logging.logback;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.CallerData;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import dev.safedefaults.StarterThreads;
import dev.safedefaults.logging.DroppedLogEvent;
import dev.safedefaults.logging.LogOutputStall;
import dev.safedefaults.logging.LogStalls;
import dev.safedefaults.logging.stop.Unwritten;
import org.jspecify.annotations.Nullable;

/**
 * One application appender behind a bounded queue (incident 2 on Logback): the calling
 * thread only queues the event, a daemon thread hands it to the appender, whose encoder
 * or layout is untouched, so the format stays.
 * <p>
 * Unlike Logback's {@code AsyncAppender} (INFO and below dropped uncounted once the queue
 * is 80% full, every caller blocked when full, or WARN and ERROR dropped too with
 * {@code neverBlock}), a full queue drops the events at or below the threshold at once,
 * and counts them; WARN and ERROR wait for room at most the queue-full timeout, parked on
 * the queue: when one has waited it all, the appender's output is stalled
 * ({@link LogOutputStall}) and, until the queue has drained to half, WARN and ERROR are
 * dropped without waiting and counted; then this thread writes, before the next event,
 * the line that says what was lost (issue 49). With
 * {@link dev.safedefaults.logging.QueueFullMode#BLOCK} every event waits for as long as
 * the queue stays full.
 * <p>
 * No caller data: the event's caller data is set empty before it is queued, so nothing
 * walks the calling thread's stack (incident 3) and a layout that asks for it prints
 * {@code ?}. The message, the thread name and the MDC are fixed on the calling thread
 * ({@code prepareForDeferredProcessing}, which takes no caller data).
 */
public final class CountingAsyncAppender extends UnsynchronizedAppenderBase<ILoggingEvent>
		implements LogQueue<Appender<ILoggingEvent>> {

	/**
	 * How long a reset or reconfiguration waits for a wrapped appender's queue, as
	 * Logback's own {@code AsyncAppender} does ({@code maxFlushTime}). At a stop the
	 * starter's bounded stop has drained the queues with the shutdown timeout before.
	 */
	static final Duration STOP_FLUSH_TIME = Duration.ofSeconds(1);

	private final Appender<ILoggingEvent> delegate;

	private final WrappingSettings settings;

	private final BlockingQueue<ILoggingEvent> queue;

	/**
	 * Events queued or being written: counted from before they enter the queue until the
	 * appender has returned, so that no moment looks empty while one is in between.
	 */
	private final AtomicInteger pending = new AtomicInteger();

	/**
	 * Events whose threads wait for room in the full queue (WARN and ERROR, or every
	 * event in block mode), and the WARN and ERROR among them: not queued yet, so a stop
	 * that comes first counts them with the queue.
	 */
	private final AtomicInteger waiting = new AtomicInteger();

	private final AtomicInteger waitingSevere = new AtomicInteger();

	/** The event the worker is handing to the appender, if any. */
	private final AtomicReference<@Nullable ILoggingEvent> inFlight = new AtomicReference<>();

	private volatile @Nullable Thread worker;

	private final LogOutputStall stall;

	/**
	 * Wraps an appender.
	 * @param delegate the application's appender, started or not, kept as it is
	 * @param settings the application context's settings and count of discards
	 */
	public CountingAsyncAppender(Appender<ILoggingEvent> delegate, WrappingSettings settings) {
		this.delegate = delegate;
		this.settings = settings;
		this.queue = new ArrayBlockingQueue<>(settings.queueCapacity());
		this.stall = output(delegate, settings);
		setName(delegate.getName());
		if (delegate.getContext() != null) {
			setContext(delegate.getContext());
		}
	}

	/**
	 * The application's appender.
	 * @return the wrapped appender
	 */
	public Appender<ILoggingEvent> getDelegate() {
		return this.delegate;
	}

	@Override
	public Appender<ILoggingEvent> output() {
		return this.delegate;
	}

	/**
	 * How many events the queue holds.
	 * @return the capacity
	 */
	public int getQueueCapacity() {
		return this.queue.remainingCapacity() + this.queue.size();
	}

	@Override
	public void start() {
		if (isStarted()) {
			return;
		}
		Thread thread = StarterThreads.newThread(this::work, "safe-defaults-logback-" + getName());
		this.worker = thread;
		super.start();
		thread.start();
	}

	@Override
	protected void append(ILoggingEvent event) {
		boolean mayDiscard = this.settings.mayDiscard(event.getLevel());
		if (mayDiscard && this.queue.remainingCapacity() == 0) {
			// Discarded before anything is prepared: no message formatted, no MDC copied
			// for an event that is never written.
			this.settings.countDiscarded();
			return;
		}
		if (event instanceof LoggingEvent loggingEvent) {
			// Never the calling thread's stack (includeCallerData=false, always).
			loggingEvent.setCallerData(CallerData.EMPTY_CALLER_DATA_ARRAY);
		}
		event.prepareForDeferredProcessing();
		this.pending.incrementAndGet();
		if (this.queue.offer(event)) {
			return;
		}
		if (mayDiscard) {
			this.pending.decrementAndGet();
			this.settings.countDiscarded();
			return;
		}
		if (!this.settings.discard()) {
			putUninterruptibly(event, Long.MAX_VALUE);
			return;
		}
		long wait = this.stall.waitNanos();
		if (wait > 0) {
			if (putUninterruptibly(event, wait)) {
				return;
			}
			this.stall.waitedTheWholeBound();
		}
		this.pending.decrementAndGet();
		if (!isSevere(event)) {
			// Above a lowered threshold (INFO with 'debug'): counted with the discards.
			this.settings.countDiscarded();
			return;
		}
		this.stall.dropped(dropped(event));
	}

	/**
	 * Waits for room in the full queue, parked, at most the given time.
	 * @return true when the event was queued
	 */
	private boolean putUninterruptibly(ILoggingEvent event, long waitNanos) {
		boolean severe = isSevere(event);
		this.waiting.incrementAndGet();
		if (severe) {
			this.waitingSevere.incrementAndGet();
		}
		boolean interrupted = false;
		long deadline = System.nanoTime() + Math.min(waitNanos, Long.MAX_VALUE / 2);
		try {
			while (true) {
				try {
					if (waitNanos == Long.MAX_VALUE) {
						this.queue.put(event);
						return true;
					}
					return this.queue.offer(event, deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			this.waiting.decrementAndGet();
			if (severe) {
				this.waitingSevere.decrementAndGet();
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void work() {
		while (isStarted() || !this.queue.isEmpty()) {
			summariseOnceDrained();
			ILoggingEvent event;
			try {
				event = this.queue.poll(100, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				// stop() gave up waiting: what is left stays queued, and counted.
				return;
			}
			if (event != null) {
				this.inFlight.set(event);
				try {
					this.delegate.doAppend(event);
				}
				finally {
					this.inFlight.set(null);
					this.pending.decrementAndGet();
				}
			}
		}
	}

	/**
	 * Once the queue has drained to half after events were lost, writes the line that
	 * says what, straight to the appender, ahead of the rest of the queue.
	 */
	private void summariseOnceDrained() {
		if ((this.stall.isStalled() || this.stall.hasLost())
				&& this.queue.size() <= this.settings.queueCapacity() / 2) {
			summarise(this.stall, getContext(), this.delegate);
		}
	}

	/** The state of an application's appender as an output that may stall. */
	static LogOutputStall output(Appender<ILoggingEvent> appender, WrappingSettings settings) {
		return settings.stalls().output("Logback appender '" + appender.getName() + "'");
	}

	/**
	 * A WARN or ERROR event dropped now, masked, with its throwable's class and message.
	 */
	static DroppedLogEvent dropped(ILoggingEvent event) {
		IThrowableProxy thrown = event.getThrowableProxy();
		return DroppedLogEvent.now(event.getLevel().isGreaterOrEqual(Level.ERROR), event.getLoggerName(),
				event.getFormattedMessage(), (thrown != null) ? thrown.getClassName() : null,
				(thrown != null) ? thrown.getMessage() : null);
	}

	/**
	 * The output moved: writes the line that says what it lost, if anything, as a WARN of
	 * the starter's logger without caller data.
	 */
	static void summarise(LogOutputStall stall, Context context, Appender<ILoggingEvent> output) {
		String line = stall.moved();
		if (line != null && context instanceof LoggerContext loggerContext) {
			LoggingEvent summary = new LoggingEvent(LogStalls.class.getName(), loggerContext.getLogger(LogStalls.class),
					Level.WARN, line, null, null);
			summary.setCallerData(CallerData.EMPTY_CALLER_DATA_ARRAY);
			output.doAppend(summary);
		}
	}

	/**
	 * Waits until every queued event has been handed to the appender, or the deadline.
	 * @param deadline in {@link System#nanoTime()}
	 * @return true when nothing is left
	 */
	@Override
	public boolean awaitEmpty(long deadline) {
		while (hasBacklog()) {
			if (System.nanoTime() - deadline >= 0) {
				return false;
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				// A stop is under way: keep waiting until the deadline.
			}
		}
		return true;
	}

	/**
	 * Whether some event is queued or being written.
	 * @return whether the worker has work left
	 */
	public boolean hasBacklog() {
		return this.pending.get() > 0;
	}

	/**
	 * Counts the events queued or being written, and those whose threads wait for room in
	 * the full queue. An event that enters the queue while this counts may be counted
	 * twice, never not at all.
	 * @return the events not written yet, WARN and ERROR counted apart
	 */
	@Override
	public Unwritten backlog() {
		long total = this.waiting.get();
		long severe = this.waitingSevere.get();
		ILoggingEvent current = this.inFlight.get();
		if (current != null) {
			total++;
			severe += isSevere(current) ? 1 : 0;
		}
		for (ILoggingEvent event : this.queue) {
			total++;
			severe += isSevere(event) ? 1 : 0;
		}
		return new Unwritten(total, severe);
	}

	private static boolean isSevere(ILoggingEvent event) {
		return event.getLevel().isGreaterOrEqual(Level.WARN);
	}

	/**
	 * Stops queueing (a reset, a reconfiguration, or the logger context's stop); waits
	 * for the queue to be written for at most {@link #STOP_FLUSH_TIME}, then stops the
	 * appender. What could not be written by then is counted as discarded.
	 */
	@Override
	public void stop() {
		if (!isStarted()) {
			return;
		}
		super.stop();
		this.settings.stalls().remove(this.stall);
		long deadline = System.nanoTime() + STOP_FLUSH_TIME.toNanos();
		if (!awaitEmpty(deadline)) {
			interruptWorker();
			this.settings.countDiscarded(backlog().total());
			// The appender may be stuck on its output: stopping it would wait there too.
			return;
		}
		this.delegate.stop();
	}

	/**
	 * Stops queueing and writes the queue to the appender, which stays started: another
	 * wrapper took this one's place.
	 */
	void retire() {
		if (!isStarted()) {
			return;
		}
		super.stop();
		this.settings.stalls().remove(this.stall);
		if (!awaitEmpty(System.nanoTime() + STOP_FLUSH_TIME.toNanos())) {
			interruptWorker();
			this.settings.countDiscarded(backlog().total());
		}
	}

	private void interruptWorker() {
		Thread thread = this.worker;
		if (thread != null) {
			thread.interrupt();
		}
	}

	WrappingSettings settings() {
		return this.settings;
	}

	@Override
	public String toString() {
		return "CountingAsyncAppender[" + this.delegate + "]";
	}

}
