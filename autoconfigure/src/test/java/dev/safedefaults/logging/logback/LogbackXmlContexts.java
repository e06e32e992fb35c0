package dev.safedefaults.logging.logback;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;

/**
 * Real Logback contexts configured from XML, as Logback reads a logback.xml.
 */
public final class LogbackXmlContexts {

	private LogbackXmlContexts() {
	}

	/**
	 * Configures a new context.
	 * @param xml the configuration, without the {@code <configuration>} element
	 * @return the started context; stop it after the test
	 */
	public static LoggerContext configure(String xml) {
		LoggerContext context = new LoggerContext();
		context.setName("test-" + System.nanoTime());
		JoranConfigurator configurator = new JoranConfigurator();
		configurator.setContext(context);
		try {
			configurator.doConfigure(new ByteArrayInputStream(
					("<configuration>" + xml + "</configuration>").getBytes(StandardCharsets.UTF_8)));
		}
		catch (JoranException ex) {
			throw new IllegalStateException(ex);
		}
		context.start();
		return context;
	}

	/**
	 * A console appender with a pattern.
	 * @param name its name
	 * @param pattern its pattern
	 * @return the XML
	 */
	public static String console(String name, String pattern) {
		return "<appender name=\"" + name + "\" class=\"ch.qos.logback.core.ConsoleAppender\">" + "<encoder><pattern>"
				+ pattern + "</pattern></encoder></appender>";
	}

}
