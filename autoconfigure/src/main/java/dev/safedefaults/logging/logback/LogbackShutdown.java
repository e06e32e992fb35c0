package dev.safedefaults.logging.logback;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import dev.safedefaults.logging.stop.BoundedLoggingStop;
import dev.safedefaults.logging.stop.LastLineWriter;
import dev.safedefaults.logging.stop.Unwritten;

/**
 * The bounded stop on Logback ({@link BoundedLoggingStop}): the same guarantee and the
 * same last line as on Log4j2.
 * <ol>
 * <li>Wait until every wrapped appender's queue is written, or the timeout has passed (or
 * the stop's deadline, when it comes first).</li>
 * <li>Written in time: stop the Logback context (appenders flushed and closed) on a
 * daemon thread, for what is left of the timeout.</li>
 * <li>Not written: count the events still queued, WARN and ERROR apart, write the line,
 * and leave the context running: stopping it would wait on the same blocked output.</li>
 * </ol>
 */
final class LogbackShutdown implements BoundedLoggingStop.Drain {

	private final LoggerContext context;

	private final Duration timeout;

	private final LastLineWriter lastLine;

	LogbackShutdown(LoggerContext context, Duration timeout, LastLineWriter lastLine) {
		this.context = context;
		this.timeout = timeout;
		this.lastLine = lastLine;
	}

	/**
	 * Makes a Logback context's bounded stop the one that runs when the JVM shuts down,
	 * in place of the previous run's. The wrapped appenders are looked up when the stop
	 * starts: a reconfigured context has new ones.
	 * @param context the Logback context Boot configures
	 * @param timeout how long queued events may take to be written
	 * @param bound how long the whole stop may take from the signal
	 */
	static void registerBoundedStop(LoggerContext context, Duration timeout, Duration bound) {
		BoundedLoggingStop.register(
				() -> new LogbackShutdown(context, timeout,
						LastLineWriter.forJvm(new LogbackLastLine(context), BoundedLoggingStop.LAST_LINE_GRACE)),
				bound);
	}

	@Override
	public void drain(long stopDeadline) {
		long deadline = System.nanoTime() + this.timeout.toNanos();
		if (stopDeadline - deadline < 0) {
			deadline = stopDeadline;
		}
		List<LogQueue<?>> wrappers = queues(this.context);
		boolean written = true;
		for (LogQueue<?> wrapper : wrappers) {
			written &= wrapper.awaitEmpty(deadline);
		}
		if (!written) {
			reportBacklog(wrappers);
			return;
		}
		if (!BoundedLoggingStop.stopContext((millis) -> this.context.stop(), deadline)) {
			// Events logged after the drain, which the context's stop could not write in
			// time.
			reportBacklog(wrappers);
		}
	}

	@Override
	public void reportBacklog() {
		reportBacklog(queues(this.context));
	}

	private void reportBacklog(List<LogQueue<?>> queues) {
		Unwritten unwritten = Unwritten.NONE;
		for (LogQueue<?> queue : queues) {
			unwritten = unwritten.plus(queue.backlog());
		}
		if (unwritten.total() > 0) {
			this.lastLine.write(unwritten.line(), unwritten.warnOrError() > 0);
		}
	}

	/**
	 * The queues in front of a context's appenders, each once.
	 * @param context the Logback context
	 * @return its queues
	 */
	static List<LogQueue<?>> queues(LoggerContext context) {
		Map<LogQueue<?>, Boolean> found = new IdentityHashMap<>();
		for (Logger logger : context.getLoggerList()) {
			for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext();) {
				if (it.next() instanceof LogQueue<?> queue) {
					found.put(queue, Boolean.TRUE);
				}
			}
		}
		return new ArrayList<>(found.keySet());
	}

}
