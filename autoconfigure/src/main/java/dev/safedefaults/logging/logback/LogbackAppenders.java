package dev.safedefaults.logging.logback;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.spi.AppenderAttachable;

/**
 * Every appender of a Logback context, once each: those attached to its loggers and those
 * attached inside them (an {@code AsyncAppender}'s, any other
 * {@code AppenderAttachable}'s), outer ones first.
 */
final class LogbackAppenders {

	private LogbackAppenders() {
	}

	/**
	 * Lists the appenders.
	 * @param context the context
	 * @return each appender once
	 */
	static List<Appender<ILoggingEvent>> of(LoggerContext context) {
		Set<Appender<ILoggingEvent>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
		for (Logger logger : context.getLoggerList()) {
			addAll(logger.iteratorForAppenders(), seen, appenders);
		}
		return appenders;
	}

	private static void addAll(Iterator<Appender<ILoggingEvent>> iterator, Set<Appender<ILoggingEvent>> seen,
			List<Appender<ILoggingEvent>> appenders) {
		while (iterator.hasNext()) {
			Appender<ILoggingEvent> appender = iterator.next();
			if (appender != null && seen.add(appender)) {
				appenders.add(appender);
				if (appender instanceof AppenderAttachable<?> attachable) {
					addAll(nested(attachable), seen, appenders);
				}
			}
		}
	}

	@SuppressWarnings("unchecked") // Appenders attached to a classic appender take
									// classic events.
	private static Iterator<Appender<ILoggingEvent>> nested(AppenderAttachable<?> attachable) {
		return ((AppenderAttachable<ILoggingEvent>) attachable).iteratorForAppenders();
	}

}
