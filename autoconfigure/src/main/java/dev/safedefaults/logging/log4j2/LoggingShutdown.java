package dev.safedefaults.logging.log4j2;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.logging.stop.BoundedLoggingStop;
import dev.safedefaults.logging.stop.LastLineWriter;
import dev.safedefaults.logging.stop.Unwritten;
import org.apache.logging.log4j.core.LoggerContext;
import org.jspecify.annotations.Nullable;

/**
 * Stops Log4j at the end of a graceful stop, in place of Spring Boot's logging shutdown
 * handler (which calls {@code LoggerContext.stop()}, a stop with a timeout of 0 ms: Log4j
 * then sleeps up to 10 s while events are queued and drops the rest, warning on stderr,
 * where a blocked stderr hangs the JVM).
 * <p>
 * The guarantee: every queued event is written within the shutdown timeout; whatever
 * could not be written by then is counted (WARN and ERROR apart) and the count is the
 * last line the starter tries to write,
 * {@code safe-defaults: N log events not written at shutdown (M WARN
 * or ERROR)}; nothing here waits past the timeout plus a short grace for that line, so a
 * blocked stdout never keeps the JVM alive.
 * <ol>
 * <li>Wait, polling every 10 ms, until the ring buffer is empty or the timeout has passed
 * (or the stop's deadline, when it comes first).</li>
 * <li>Empty in time: stop the logger context (appenders flushed and closed) with what is
 * left of the timeout, on a daemon thread.</li>
 * <li>Not empty: count the events still queued, write the line, and leave the context
 * running: stopping it would wait on the same blocked output. The JVM exits; the logging
 * thread is a daemon.</li>
 * </ol>
 * Runs from {@link BoundedLoggingStop}, as a Spring Boot shutdown handler after the
 * application contexts have closed, or at the stop's deadline when they have not.
 */
public final class LoggingShutdown implements BoundedLoggingStop.Drain {

	private static final long POLL_MILLIS = 10;

	private final LoggerContext context;

	private final Duration timeout;

	private final @Nullable RingBufferBacklog backlog;

	private final LastLineWriter lastLine;

	LoggingShutdown(LoggerContext context, Duration timeout, @Nullable RingBufferBacklog backlog,
			LastLineWriter lastLine) {
		this.context = context;
		this.timeout = timeout;
		this.backlog = backlog;
		this.lastLine = lastLine;
	}

	/**
	 * Makes a context's bounded stop the one that runs when the JVM shuts down, in place
	 * of the previous run's. The ring buffer is looked up when the stop starts: a
	 * restarted context has a new one.
	 * @param context Boot's logger context
	 * @param timeout how long queued events may take to be written
	 * @param bound how long the whole stop may take from the signal
	 */
	static void registerBoundedStop(LoggerContext context, Duration timeout, Duration bound) {
		BoundedLoggingStop.register(() -> of(context, timeout), bound);
	}

	/**
	 * The shutdown for a context.
	 * @param context Boot's logger context
	 * @param timeout how long queued events may take to be written
	 * @return the shutdown
	 */
	public static LoggingShutdown of(LoggerContext context, Duration timeout) {
		@Nullable RingBufferBacklog backlog;
		try {
			backlog = RingBufferBacklog.of(context);
		}
		catch (LinkageError ex) {
			backlog = null;
		}
		return new LoggingShutdown(context, timeout, backlog,
				LastLineWriter.forJvm(new Log4jLastLine(context), BoundedLoggingStop.LAST_LINE_GRACE));
	}

	@Override
	public void drain(long stopDeadline) {
		long deadline = System.nanoTime() + this.timeout.toNanos();
		if (stopDeadline - deadline < 0) {
			deadline = stopDeadline;
		}
		if (this.backlog != null) {
			while (this.backlog.hasBacklog() && System.nanoTime() < deadline) {
				sleep(POLL_MILLIS);
			}
			if (this.backlog.hasBacklog()) {
				reportUnwritten(this.backlog.count());
				return;
			}
		}
		if (!BoundedLoggingStop.stopContext((millis) -> this.context.stop(millis, TimeUnit.MILLISECONDS), deadline)
				&& this.backlog != null && this.backlog.hasBacklog()) {
			// Events logged after the drain, which the context's stop could not write in
			// time.
			reportUnwritten(this.backlog.count());
		}
	}

	@Override
	public void reportBacklog() {
		if (this.backlog != null) {
			reportUnwritten(this.backlog.count());
		}
	}

	private void reportUnwritten(Unwritten unwritten) {
		if (unwritten.total() > 0) {
			this.lastLine.write(unwritten.line(), unwritten.warnOrError() > 0);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			// A stop is under way anyway: keep polling until the deadline.
		}
	}

}
