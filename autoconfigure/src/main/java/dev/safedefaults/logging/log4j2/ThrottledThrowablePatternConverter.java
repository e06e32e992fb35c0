package dev.safedefaults.logging.log4j2;

import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import dev.safedefaults.logging.stacktrace.ThrottledStackTraces;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.ExtendedThrowablePatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.ThrowablePatternConverter;

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
 * {@code RenderedTraceMasking}: the starter's own masking rules. A kind is the class of
 * the throwable and its causes with their first three frames outside the JDK
 * ({@code ThrowableKind}); each converter instance (one per layout) keeps its own bounded
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

	private final ExtendedThrowablePatternConverter fullTrace;

	private final String separator;

	private final boolean throttles;

	private final ThrottledStackTraces traces = new ThrottledStackTraces();

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
		if (this.throttles && this.traces.appendOneLineIfRepeat(buffer, thrown, event.getTimeMillis())) {
			buffer.append(this.separator);
		}
		else {
			int start = buffer.length();
			this.fullTrace.format(event, buffer);
			ThrottledStackTraces.maskFullTrace(buffer, start, this.separator);
		}
		buffer.append(this.separator);
	}

	/**
	 * How many kinds this converter remembers.
	 * @return the number of kinds
	 */
	int rememberedKinds() {
		return this.traces.rememberedKinds();
	}

	@Override
	public boolean handlesThrowable() {
		return true;
	}

}
