package dev.safedefaults.logging.logback;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.CallerDataConverter;
import ch.qos.logback.classic.pattern.ClassOfCallerConverter;
import ch.qos.logback.classic.pattern.FileOfCallerConverter;
import ch.qos.logback.classic.pattern.LineOfCallerConverter;
import ch.qos.logback.classic.pattern.MethodOfCallerConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;

/**
 * Finds the Logback appenders whose pattern asks for the caller's location (incident 3):
 * {@code %C %class %F %file %L %line %M %method %caller}, also nested in a composite word
 * ({@code %replace(…)}, {@code %highlight(…)}, Boot's {@code %clr(…)}) and under a word
 * of the application's own {@code <conversionRule>} that maps to one of Logback's caller
 * converters. It parses each pattern with Logback's own parser and looks every word up in
 * the layout's converter map, as the layout did; it walks every appender, those attached
 * inside an {@code AsyncAppender} included. It reports, never rewrites: the finding names
 * the appender and the words.
 */
public class LogbackLocationPatternCheck implements Check {

	private final Supplier<LoggerContext> context;

	private final FindingType locationPattern;

	/**
	 * Creates the check.
	 * @param context the Logback context to read when the check runs
	 * @param locationPattern the finding to raise, with the words as its first argument
	 * and the appender's name as its second
	 */
	public LogbackLocationPatternCheck(Supplier<LoggerContext> context, FindingType locationPattern) {
		this.context = context;
		this.locationPattern = locationPattern;
	}

	@Override
	public String name() {
		return "logging.logback-location-patterns";
	}

	@Override
	public List<Finding> run() {
		return LogbackPatternWords.findingPerAppender(this.context.get(), (layout) -> {
			Set<String> words = locationWords(layout);
			return words.isEmpty() ? null : String.join(" ", words);
		}, this.locationPattern);
	}

	/**
	 * The words of a pattern layout that need the caller's location, as written.
	 * @param layout the layout
	 * @return the words ({@code %L}), empty when none or when the pattern does not parse
	 */
	static Set<String> locationWords(PatternLayoutBase<ILoggingEvent> layout) {
		return LogbackPatternWords.matching(layout, LogbackLocationPatternCheck::needsLocation);
	}

	private static boolean needsLocation(Object converter) {
		return converter instanceof LineOfCallerConverter || converter instanceof MethodOfCallerConverter
				|| converter instanceof ClassOfCallerConverter || converter instanceof FileOfCallerConverter
				|| converter instanceof CallerDataConverter;
	}

}
