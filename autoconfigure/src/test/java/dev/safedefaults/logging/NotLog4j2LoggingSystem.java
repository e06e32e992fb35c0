package dev.safedefaults.logging;

import org.springframework.boot.logging.LoggingSystem;

/**
 * A logging system that is neither Log4j2 nor Logback.
 */
public class NotLog4j2LoggingSystem extends LoggingSystem {

	@Override
	public void beforeInitialize() {
	}

}
