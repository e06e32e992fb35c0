package dev.safedefaults.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bounded logging stop as docs/shutdown.md documents it, read from outside an
 * application process: the bound of a stop, the last line that counts what was not
 * written, and the output a stop leaves. The system tests of either logging route (Log4j2
 * on the sample app, Logback on a consumer application) check against it.
 */
public final class LoggingStopContract {

	/**
	 * The line a stop writes when events were not written: the count of all of them, and
	 * of the WARN and ERROR among them.
	 */
	public static final Pattern LAST_LINE = Pattern
		.compile("safe-defaults: (\\d+) log events not written at shutdown \\((\\d+) WARN or ERROR\\)");

	/**
	 * Linux's default pipe capacity: what an application can have written to stdout that
	 * its reader has not read.
	 */
	public static final long PIPE_CAPACITY = 64 * 1024;

	/**
	 * What a test's own clock may add to a stop on a loaded 2-core machine: it measures
	 * from sending SIGTERM to its {@code waitFor} returning, so the signal's delivery,
	 * the JVM's exit after the last line and the test thread's wake-up count too. A stop
	 * that is not bounded (request threads blocked on a stalled stdout keep Tomcat's stop
	 * waiting; a drain that waits for a stalled output) never ends: the margin does not
	 * let it pass.
	 */
	public static final Duration LOADED_MACHINE_MARGIN = Duration.ofSeconds(3);

	private LoggingStopContract() {
	}

	/**
	 * The documented bound of a stop, from the signal to the exit.
	 * @param phase {@code spring.lifecycle.timeout-per-shutdown-phase}
	 * @param shutdownTimeout {@code safe-defaults.logging.shutdown-timeout}
	 * @return phase + shutdown timeout + 2 s
	 */
	public static Duration stopBound(Duration phase, Duration shutdownTimeout) {
		return phase.plus(shutdownTimeout).plusSeconds(2);
	}

	/**
	 * The bound a test checks a stop against, on its own clock.
	 * @param phase {@code spring.lifecycle.timeout-per-shutdown-phase}
	 * @param shutdownTimeout {@code safe-defaults.logging.shutdown-timeout}
	 * @return {@link #stopBound} + {@link #LOADED_MACHINE_MARGIN}
	 */
	public static Duration observedStopBound(Duration phase, Duration shutdownTimeout) {
		return stopBound(phase, shutdownTimeout).plus(LOADED_MACHINE_MARGIN);
	}

	/**
	 * An output file's text up to its last complete line: a write cut off by the stop is
	 * not written.
	 * @param file the file stdout was copied to
	 * @return its complete lines
	 */
	public static String completeText(Path file) {
		try {
			String text = Files.readString(file, StandardCharsets.UTF_8);
			int end = text.lastIndexOf('\n');
			return (end >= 0) ? text.substring(0, end + 1) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * How often a pattern is found in a text.
	 * @param pattern the pattern, e.g. an ERROR line
	 * @param text the text
	 * @return the count of matches
	 */
	public static int count(Pattern pattern, String text) {
		int count = 0;
		for (Matcher matcher = pattern.matcher(text); matcher.find();) {
			count++;
		}
		return count;
	}

}
