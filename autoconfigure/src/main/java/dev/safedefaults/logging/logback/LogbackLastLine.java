package dev.safedefaults.logging.logback;

import java.util.Iterator;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import dev.safedefaults.logging.stop.LastLineWriter;

/**
 * The last line on Logback: to the root logger's appenders, past their queues
 * ({@link LogQueue#output()}: the application's own appenders, in its own format).
 */
final class LogbackLastLine implements LastLineWriter.LogOutput {

	private final LoggerContext context;

	LogbackLastLine(LoggerContext context) {
		this.context = context;
	}

	@Override
	public void write(String line, boolean severe) {
		Logger logger = this.context.getLogger(LastLineWriter.LOGGER_NAME);
		LoggingEvent event = new LoggingEvent(LastLineWriter.class.getName(), logger, severe ? Level.ERROR : Level.WARN,
				line, null, null);
		Logger root = this.context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext();) {
			Appender<ILoggingEvent> appender = it.next();
			Appender<ILoggingEvent> output = outputOf(appender);
			if (output.isStarted()) {
				output.doAppend(event);
			}
		}
	}

	@SuppressWarnings("unchecked")
	private static Appender<ILoggingEvent> outputOf(Appender<ILoggingEvent> appender) {
		if (appender instanceof LogQueue<?> queue && queue.output() instanceof Appender<?> output) {
			return (Appender<ILoggingEvent>) output;
		}
		return appender;
	}

}
