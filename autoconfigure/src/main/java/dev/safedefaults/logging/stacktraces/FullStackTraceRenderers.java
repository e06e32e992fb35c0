package dev.safedefaults.logging.stacktraces;

import java.util.List;
import java.util.Optional;

import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;
import org.apache.logging.log4j.core.pattern.PatternFormatter;
import org.apache.logging.log4j.core.pattern.PatternParser;

/**
 * Finds a pattern layout that prints every stack trace in full (incident 6): one whose
 * throwable converter is {@code %ex}, {@code %xEx}, {@code %rEx}, Boot's {@code %wEx} or
 * {@code %xwEx} rather than {@code %throttledEx}, or one without a throwable converter, to
 * which {@code PatternLayout} appends its own {@code %xEx}. The pattern is parsed as
 * {@code PatternLayout} parses it, so Boot's {@code ${sys:LOG_EXCEPTION_CONVERSION_WORD}}
 * counts as what it was resolved to.
 */
public final class FullStackTraceRenderers {

	private FullStackTraceRenderers() {
	}

	/**
	 * What prints the layout's stack traces in full, if anything.
	 * @param layout the layout
	 * @param configuration the configuration it belongs to (its plugins)
	 * @return the converter's class ({@code ExtendedThrowablePatternConverter}, Boot's
	 * {@code ExtendedWhitespaceThrowablePatternConverter}, …) or that Log4j appends its own;
	 * empty when the layout throttles its stack traces or renders them inside another
	 * converter ({@code %highlight{…%ex}}), which this does not judge
	 */
	public static Optional<String> find(PatternLayout layout, Configuration configuration) {
		String pattern = layout.getConversionPattern();
		if (pattern == null) {
			return Optional.empty();
		}
		PatternParser parser = PatternLayout.createPatternParser(configuration);
		List<PatternFormatter> formatters = parser.parse(pattern, false, false, false);
		boolean handled = false;
		for (PatternFormatter formatter : formatters) {
			if (!formatter.handlesThrowable()) {
				continue;
			}
			handled = true;
			LogEventPatternConverter converter = formatter.getConverter();
			if (converter instanceof ThrottledThrowablePatternConverter) {
				return Optional.empty();
			}
			// Log4j's %ex, %xEx, %rEx and Boot's %wEx, %xwEx; not the wrappers that merely
			// contain one (%highlight, %style, %maxLen, %enc).
			String type = converter.getClass().getSimpleName();
			if (type.endsWith("ThrowablePatternConverter")) {
				return Optional.of(type);
			}
		}
		// PatternLayout's default (alwaysWriteExceptions, which it does not expose) appends %xEx.
		return handled ? Optional.empty() : Optional.of("no throwable converter, so Log4j appends %xEx");
	}

}
