package dev.safedefaults.logging.logback;

import ch.qos.logback.classic.LoggerContext;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * The Logback context Boot configured: SLF4J's.
 */
final class LogbackContexts {

	private LogbackContexts() {
	}

	static LoggerContext running() {
		ILoggerFactory factory = LoggerFactory.getILoggerFactory();
		if (factory instanceof LoggerContext context) {
			return context;
		}
		throw new IllegalStateException("SLF4J is not bound to Logback: " + factory.getClass().getName());
	}

}
