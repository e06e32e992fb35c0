package dev.safedefaults.logging.logback;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.CallerDataConverter;
import ch.qos.logback.classic.pattern.ClassOfCallerConverter;
import ch.qos.logback.classic.pattern.FileOfCallerConverter;
import ch.qos.logback.classic.pattern.LineOfCallerConverter;
import ch.qos.logback.classic.pattern.MethodOfCallerConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import ch.qos.logback.core.pattern.parser.CompositeNode;
import ch.qos.logback.core.pattern.parser.Node;
import ch.qos.logback.core.pattern.parser.Parser;
import ch.qos.logback.core.pattern.parser.SimpleKeywordNode;
import ch.qos.logback.core.spi.ScanException;
import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import org.jspecify.annotations.Nullable;

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
		List<Finding> findings = new ArrayList<>();
		for (Appender<ILoggingEvent> appender : LogbackAppenders.of(this.context.get())) {
			PatternLayoutBase<ILoggingEvent> layout = patternLayout(appender);
			if (layout == null) {
				continue;
			}
			Set<String> words = locationWords(layout);
			if (!words.isEmpty()) {
				String name = String.valueOf(appender.getName());
				findings.add(this.locationPattern.raise(name, String.join(" ", words), name));
			}
		}
		return findings;
	}

	private static @Nullable PatternLayoutBase<ILoggingEvent> patternLayout(Appender<ILoggingEvent> appender) {
		if (appender instanceof OutputStreamAppender<ILoggingEvent> output
				&& output.getEncoder() instanceof LayoutWrappingEncoder<ILoggingEvent> encoder
				&& encoder.getLayout() instanceof PatternLayoutBase<ILoggingEvent> layout) {
			return layout;
		}
		return null;
	}

	/**
	 * The words of a pattern layout that need the caller's location, as written.
	 * @param layout the layout
	 * @return the words ({@code %L}), empty when none or when the pattern does not parse
	 */
	static Set<String> locationWords(PatternLayoutBase<ILoggingEvent> layout) {
		Set<String> words = new LinkedHashSet<>();
		String pattern = layout.getPattern();
		if (pattern == null) {
			return words;
		}
		Node head;
		try {
			Parser<ILoggingEvent> parser = new Parser<>(pattern);
			parser.setContext(layout.getContext());
			head = parser.parse();
		}
		catch (ScanException | RuntimeException ex) {
			// A pattern Logback cannot parse renders nothing to look at.
			return words;
		}
		collect(head, layout.getEffectiveConverterMap(), words);
		return words;
	}

	private static void collect(@Nullable Node node, Map<String, Supplier<DynamicConverter>> converters,
			Set<String> words) {
		for (Node current = node; current != null; current = current.getNext()) {
			if (current instanceof SimpleKeywordNode keyword && keyword.getValue() instanceof String word
					&& needsLocation(converters.get(word))) {
				words.add("%" + word);
			}
			if (current instanceof CompositeNode composite) {
				collect(composite.getChildNode(), converters, words);
			}
		}
	}

	private static boolean needsLocation(@Nullable Supplier<DynamicConverter> supplier) {
		if (supplier == null) {
			return false;
		}
		Object converter;
		try {
			converter = supplier.get();
		}
		catch (RuntimeException ex) {
			return false;
		}
		return converter instanceof LineOfCallerConverter || converter instanceof MethodOfCallerConverter
				|| converter instanceof ClassOfCallerConverter || converter instanceof FileOfCallerConverter
				|| converter instanceof CallerDataConverter;
	}

}
