package dev.safedefaults.logging.log4j2;

import java.util.Optional;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * Finds a pattern layout that prints every stack trace in full (incident 6): it renders
 * one test event carrying a {@value #PROBE_FRAMES}-frame exception through the layout, as
 * an appender would, and counts the frame lines that come out. So whatever prints the
 * trace is found — {@code %ex}, {@code %xEx}, {@code %rEx}, Boot's {@code %wEx} and
 * {@code %xwEx}, a converter nested in {@code %highlight{…}}, the {@code %xEx} Log4j
 * appends to a pattern without one, a {@code PatternSelector}'s default pattern — and
 * what does not is left alone: {@code %ex{short}}, {@code %xwEx{1}},
 * {@code alwaysWriteExceptions="false"}.
 * <p>
 * A layout that mentions {@code %throttledEx} is not rendered: its first traces of a kind
 * are printed in full by design, and the test event would take one of its kind slots. So
 * a {@code PatternSelector} with {@code %throttledEx} in any of its patterns is not
 * judged. Nothing is written anywhere: the layout only formats the event into a string.
 */
public final class FullStackTraceRenderers {

	/** Frames of the test exception. */
	static final int PROBE_FRAMES = 40;

	/**
	 * At least this many of them printed is a full trace; fewer is a trace its pattern
	 * cut short.
	 */
	private static final int FULL = PROBE_FRAMES / 2;

	private FullStackTraceRenderers() {
	}

	/**
	 * Whether the layout prints stack traces in full, and how it showed.
	 * @param layout the layout
	 * @return how many of the test exception's frames it printed, empty when it prints
	 * fewer than half of them, throttles them, or cannot render the test event
	 */
	public static Optional<String> find(PatternLayout layout) {
		// With a PatternSelector, toString() shows the selector's patterns.
		if (String.valueOf(layout.getConversionPattern()).contains("throttledEx")
				|| String.valueOf(layout).contains("throttledEx")) {
			return Optional.empty();
		}
		String rendered;
		try {
			rendered = layout.toSerializable(probeEvent());
		}
		catch (RuntimeException | LinkageError ex) {
			// A layout that cannot render a plain event says nothing about stack traces.
			return Optional.empty();
		}
		int frames = 0;
		for (String line : rendered.split("\\R")) {
			if (line.stripLeading().startsWith("at " + FullStackTraceRenderers.class.getName())) {
				frames++;
			}
		}
		return (frames >= FULL)
				? Optional.of("a " + PROBE_FRAMES + "-frame test exception came out with " + frames + " frame lines")
				: Optional.empty();
	}

	private static LogEvent probeEvent() {
		IllegalStateException probe = new IllegalStateException(
				"safe-defaults: how does this layout print a stack trace?");
		StackTraceElement[] stack = new StackTraceElement[PROBE_FRAMES];
		for (int i = 0; i < PROBE_FRAMES; i++) {
			// A real class, so extended converters find its jar without a failed class
			// lookup.
			stack[i] = new StackTraceElement(FullStackTraceRenderers.class.getName(), "probe",
					"FullStackTraceRenderers.java", i + 1);
		}
		probe.setStackTrace(stack);
		return Log4jLogEvent.newBuilder()
			.setLoggerName(FullStackTraceRenderers.class.getName())
			.setLevel(Level.ERROR)
			.setMessage(new SimpleMessage("probe"))
			.setThrown(probe)
			.build();
	}

}
