package dev.safedefaults.logging.log4j2;

import dev.safedefaults.logging.stop.LastLineWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * The last line on Log4j: to the root logger's appenders, called directly (with every
 * logger asynchronous they are the real outputs).
 */
final class Log4jLastLine implements LastLineWriter.LogOutput {

	private final LoggerContext context;

	Log4jLastLine(LoggerContext context) {
		this.context = context;
	}

	@Override
	public void write(String line, boolean severe) {
		LogEvent event = Log4jLogEvent.newBuilder()
			.setLoggerName(LastLineWriter.LOGGER_NAME)
			.setLoggerFqcn(LastLineWriter.class.getName())
			.setLevel(severe ? Level.ERROR : Level.WARN)
			.setMessage(new SimpleMessage(line))
			.setThreadName(Thread.currentThread().getName())
			.setTimeMillis(System.currentTimeMillis())
			.build();
		for (Appender appender : this.context.getConfiguration().getRootLogger().getAppenders().values()) {
			if (appender.isStarted()) {
				appender.append(event);
			}
		}
	}

}
