package dev.safedefaults.logging.stacktrace;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;

import org.jspecify.annotations.Nullable;

/**
 * What {@code %throttledEx} does, whichever logging system renders it: for one converter
 * (one layout), decides whether a throwable's stack trace is printed in full or replaced
 * by one line, writes that line, and masks the full traces. Log4j2's
 * {@code dev.safedefaults.logging.log4j2.ThrottledThrowablePatternConverter} and
 * Logback's {@code dev.safedefaults.logging.logback.ThrottledThrowableConverter} each
 * keep one, so both systems print the same lines under the same
 * {@code safe-defaults.logging.stack-traces.*} settings ({@link StackTraceThrottling})
 * and count their elisions in the same per-context count.
 * <p>
 * The one line holds only what is known to be safe (class names and a frame): <pre>
 * java.lang.IllegalStateException at com.example.Client.call(Client.java:42), root cause java.net.ConnectException (message and stack trace elided: seen 57 times since 10:15:02; first printed at 10:16:02)
 * </pre>
 */
public final class ThrottledStackTraces {

	private static final String ELIDED = " (message and stack trace elided: seen ";

	private final ThrowableKindTracker throttle = new ThrowableKindTracker();

	private final ZoneId zone = ZoneId.systemDefault();

	/**
	 * Records one occurrence of a throwable and, when it is a repeat beyond the first
	 * {@code first-n} of its kind in the interval, appends its one line (without a line
	 * separator) and counts it as elided.
	 * @param buffer where the line goes
	 * @param thrown the throwable
	 * @param timeMillis when the event happened (the event's own timestamp)
	 * @return true when the one line was appended, false when the full stack trace is to
	 * be printed (then mask it with {@link #maskFullTrace})
	 */
	public boolean appendOneLineIfRepeat(StringBuilder buffer, Throwable thrown, long timeMillis) {
		ThrowableKindTracker.Elision elision = this.throttle.record(ThrowableKind.of(thrown), timeMillis,
				StackTraceThrottling.settings());
		if (elision == null) {
			return false;
		}
		appendOneLine(buffer, thrown, elision);
		StackTraceThrottling.countElided();
		return true;
	}

	/**
	 * Masks credentials in a full stack trace just rendered
	 * ({@link RenderedTraceMasking}).
	 * @param buffer the buffer
	 * @param start where the trace starts in it
	 * @param separator the renderer's line separator
	 */
	public static void maskFullTrace(StringBuilder buffer, int start, String separator) {
		RenderedTraceMasking.mask(buffer, start, separator);
	}

	/**
	 * How many kinds this converter remembers.
	 * @return the number of kinds
	 */
	public int rememberedKinds() {
		return this.throttle.size();
	}

	private void appendOneLine(StringBuilder buffer, Throwable thrown, ThrowableKindTracker.Elision elision) {
		// Only what is known to be safe: the message, where drivers and clients put URLs
		// with their credentials, is in the full traces (masked), never repeated on every
		// line.
		buffer.append(thrown.getClass().getName());
		StackTraceElement site = throwSite(thrown);
		if (site != null) {
			buffer.append(" at ").append(site);
		}
		Throwable root = rootCause(thrown);
		if (root != thrown) {
			buffer.append(", root cause ").append(root.getClass().getName());
		}
		buffer.append(ELIDED).append(elision.seen()).append(" times since ");
		appendTime(buffer, elision.sinceMillis());
		buffer.append("; first printed at ");
		appendTime(buffer, elision.firstPrintedMillis());
		buffer.append(')');
	}

	/** The first frame outside the JDK (the caller that failed), else the first frame. */
	private static @Nullable StackTraceElement throwSite(Throwable thrown) {
		StackTraceElement[] trace = thrown.getStackTrace();
		if (trace == null || trace.length == 0) {
			return null;
		}
		for (StackTraceElement element : trace) {
			if (element != null && !ThrowableKind.isJdkFrame(element)) {
				return element;
			}
		}
		return trace[0];
	}

	private static Throwable rootCause(Throwable thrown) {
		Throwable root = thrown;
		for (int depth = 0; depth < ThrowableKind.MAX_CAUSES && root.getCause() != null
				&& root.getCause() != root; depth++) {
			root = root.getCause();
		}
		return root;
	}

	private void appendTime(StringBuilder buffer, long epochMillis) {
		LocalTime time = LocalTime.ofInstant(Instant.ofEpochMilli(epochMillis), this.zone);
		appendTwoDigits(buffer, time.getHour());
		buffer.append(':');
		appendTwoDigits(buffer, time.getMinute());
		buffer.append(':');
		appendTwoDigits(buffer, time.getSecond());
	}

	private static void appendTwoDigits(StringBuilder buffer, int value) {
		buffer.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
	}

}
