package dev.safedefaults.logging.logback;

import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.pattern.NopThrowableInformationConverter;
import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import org.jspecify.annotations.Nullable;

/**
 * Finds the Logback appenders whose pattern prints every stack trace in full (incident
 * 6), as {@code logging.full-stack-traces} does on Log4j2: a throwable word other than
 * {@code %throttledEx} and {@code %nopex} ({@code %ex}, {@code %xEx}, {@code %rEx},
 * Boot's {@code %wEx}, an application's alias of one of them), or no throwable word at
 * all in a {@link PatternLayout}, to which Logback appends {@code %ex}. It reports, never
 * rewrites.
 */
public class LogbackFullStackTracesCheck implements Check {

	private final Supplier<LoggerContext> context;

	private final FindingType fullStackTraces;

	/**
	 * Creates the check.
	 * @param context the Logback context to read when the check runs
	 * @param fullStackTraces the finding to raise, with how the pattern prints traces as
	 * its first argument and the appender's name as its second
	 */
	public LogbackFullStackTracesCheck(Supplier<LoggerContext> context, FindingType fullStackTraces) {
		this.context = context;
		this.fullStackTraces = fullStackTraces;
	}

	@Override
	public String name() {
		return "logging.logback-full-stack-traces";
	}

	@Override
	public List<Finding> run() {
		return LogbackPatternWords.findingPerAppender(this.context.get(), LogbackFullStackTracesCheck::fullTraces,
				this.fullStackTraces);
	}

	private static @Nullable String fullTraces(PatternLayoutBase<ILoggingEvent> layout) {
		Set<String> full = LogbackPatternWords.matching(layout, LogbackFullStackTracesCheck::printsInFull);
		if (!full.isEmpty()) {
			return String.join(" ", full);
		}
		if (layout instanceof PatternLayout && layout.getPattern() != null
				&& LogbackPatternWords.matching(layout, ThrowableHandlingConverter.class::isInstance).isEmpty()) {
			return "no throwable word: Logback appends %ex";
		}
		return null;
	}

	private static boolean printsInFull(Object converter) {
		return converter instanceof ThrowableHandlingConverter && !(converter instanceof ThrottledThrowableConverter)
				&& !(converter instanceof NopThrowableInformationConverter);
	}

}
