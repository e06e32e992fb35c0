package dev.safedefaults.logging.stacktraces;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;

import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.ExtendedThrowablePatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.ThrowablePatternConverter;
import org.jspecify.annotations.Nullable;

/**
 * {@code %throttledEx}: Spring Boot's {@code %xwEx} (the extended stack trace, with
 * causes and suppressed throwables, set off by a line separator before and after) for the
 * first {@code first-n} throwables of a kind in an interval, and one line for the rest:
 * <pre>
 * java.lang.IllegalStateException at com.example.Client.call(Client.java:42), root cause java.net.ConnectException (message and stack trace elided: seen 57 times since 10:15:02; first printed at 10:16:02)
 * </pre> Every event is still written; only the messages and frames of the repeats are
 * left out (incident 6: in an error storm, rendering 50–100-frame traces is what keeps
 * the single async logging thread behind, fills the ring buffer and makes request threads
 * that log an ERROR wait). The one-liner holds only what is known to be safe (class names
 * and a frame): a driver's or an HTTP client's message often carries a URL with its
 * credentials. The messages it does print, in the full traces, go through
 * {@link RenderedTraceMasking}: the starter's own masking rules. A kind is the class of
 * the throwable and its causes with their first three frames outside the JDK
 * ({@link ThrowableKind}); each converter instance (one per layout) keeps its own bounded
 * map of kinds, so every log destination gets its own first traces.
 * <p>
 * It reports that it handles the throwable ({@link #handlesThrowable()}), so a
 * {@code PatternLayout} does not append its own {@code %xEx} after it. Options are those
 * of {@code %xEx} ({@code separator(…)}, {@code filters(…)}, a line count); with
 * {@code none}, {@code 0} or a {@code short.*} property it renders as {@code %xwEx} would
 * (masked), without throttling. The starter makes it Spring Boot's
 * {@code logging.exception-conversion-word}; the settings are
 * {@link StackTraceThrottling}'s.
 */
@Plugin(name = "ThrottledThrowablePatternConverter", category = PatternConverter.CATEGORY)
@ConverterKeys({ "throttledEx", "throttledThrowable", "throttledException" })
public final class ThrottledThrowablePatternConverter extends ThrowablePatternConverter {

	private static final String ELIDED = " (message and stack trace elided: seen ";

	private final ExtendedThrowablePatternConverter fullTrace;

	private final String separator;

	private final boolean throttles;

	private final ThrowableKindTracker throttle = new ThrowableKindTracker();

	private final ZoneId zone = ZoneId.systemDefault();

	@SuppressWarnings("deprecation") // The canonical constructor is package-private in
										// Log4j 2.25.
	private ThrottledThrowablePatternConverter(Configuration configuration, String[] options) {
		super("ThrottledThrowable", "throwable", options, configuration);
		this.fullTrace = ExtendedThrowablePatternConverter.newInstance(configuration, options);
		this.separator = this.fullTrace.getOptions().getSeparator();
		this.throttles = this.fullTrace.getOptions().anyLines() && !isPropertyOption(options);
	}

	private static boolean isPropertyOption(String[] options) {
		return options != null && options.length > 0 && options[0] != null && options[0].startsWith("short.");
	}

	/**
	 * Creates the converter. Called by Log4j for {@code %throttledEx} in a pattern.
	 * @param configuration the configuration
	 * @param options the options, as for {@code %xEx}
	 * @return the converter
	 */
	public static ThrottledThrowablePatternConverter newInstance(Configuration configuration, String[] options) {
		return new ThrottledThrowablePatternConverter(configuration, options);
	}

	@Override
	public void format(LogEvent event, StringBuilder buffer) {
		Throwable thrown = event.getThrown();
		if (thrown == null) {
			return;
		}
		// The separators before and after are Spring Boot's %xwEx: the default layout
		// reads the same.
		buffer.append(this.separator);
		ThrowableKindTracker.Elision elision = this.throttles
				? this.throttle.record(ThrowableKind.of(thrown), event.getTimeMillis(), StackTraceThrottling.settings())
				: null;
		if (elision == null) {
			int start = buffer.length();
			this.fullTrace.format(event, buffer);
			RenderedTraceMasking.mask(buffer, start, this.separator);
		}
		else {
			appendOneLine(buffer, thrown, elision);
			buffer.append(this.separator);
			StackTraceThrottling.countElided();
		}
		buffer.append(this.separator);
	}

	private void appendOneLine(StringBuilder buffer, Throwable thrown, ThrowableKindTracker.Elision elision) {
		// Only what is known to be safe: the message, where drivers and clients put URLs
		// with
		// their credentials, is in the full traces (masked), never repeated on every
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

	/**
	 * How many kinds this converter remembers.
	 * @return the number of kinds
	 */
	int rememberedKinds() {
		return this.throttle.size();
	}

	@Override
	public boolean handlesThrowable() {
		return true;
	}

}
