package dev.safedefaults.logging.logback;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import ch.qos.logback.classic.LoggerContext;
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
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingType;
import org.jspecify.annotations.Nullable;

/**
 * Reads the conversion words of a Logback appender's pattern as its layout does: the
 * pattern parsed with Logback's own parser, every word (nested ones in a composite word
 * included) looked up in the layout's converter map, so that an application's own
 * {@code <conversionRule>} aliases resolve to the converter they name.
 * <p>
 * Everything the pattern checks ({@link LogbackFullStackTracesCheck},
 * {@link LogbackLocationPatternCheck}) share is here, down to one finding per appender
 * ({@link #findingPerAppender}); what is left in each is a {@code Check}'s shape around
 * its own test of a converter, which is why they have no base class.
 */
final class LogbackPatternWords {

	private LogbackPatternWords() {
	}

	/**
	 * The pattern layout an appender writes with, when it has one.
	 * @param appender the appender
	 * @return its pattern layout, or {@code null}
	 */
	static @Nullable PatternLayoutBase<ILoggingEvent> patternLayout(Appender<ILoggingEvent> appender) {
		if (appender instanceof OutputStreamAppender<ILoggingEvent> output
				&& output.getEncoder() instanceof LayoutWrappingEncoder<ILoggingEvent> encoder
				&& encoder.getLayout() instanceof PatternLayoutBase<ILoggingEvent> layout) {
			return layout;
		}
		return null;
	}

	/**
	 * One finding per appender of a context whose pattern layout shows what a check looks
	 * for, those attached inside an {@code AsyncAppender} included.
	 * @param context the Logback context
	 * @param reading what the check reads in a pattern layout (the words it found, or how
	 * the pattern prints), or {@code null} when the layout has nothing to report
	 * @param finding the finding to raise, with the reading as its first argument and the
	 * appender's name as its second
	 * @return the findings, one per such appender
	 */
	static List<Finding> findingPerAppender(LoggerContext context,
			Function<PatternLayoutBase<ILoggingEvent>, @Nullable String> reading, FindingType finding) {
		List<Finding> findings = new ArrayList<>();
		for (Appender<ILoggingEvent> appender : LogbackAppenders.of(context)) {
			PatternLayoutBase<ILoggingEvent> layout = patternLayout(appender);
			String read = (layout != null) ? reading.apply(layout) : null;
			if (read != null) {
				String name = String.valueOf(appender.getName());
				findings.add(finding.raise(name, read, name));
			}
		}
		return findings;
	}

	/**
	 * The words of a layout's pattern whose converter matches, as written.
	 * @param layout the layout
	 * @param converter which converters to report
	 * @return the words ({@code %L}), empty when none or when the pattern does not parse
	 */
	static Set<String> matching(PatternLayoutBase<ILoggingEvent> layout, Predicate<Object> converter) {
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
		collect(head, layout.getEffectiveConverterMap(), converter, words);
		return words;
	}

	private static void collect(@Nullable Node node, Map<String, Supplier<DynamicConverter>> converters,
			Predicate<Object> converter, Set<String> words) {
		for (Node current = node; current != null; current = current.getNext()) {
			if (current instanceof SimpleKeywordNode keyword && keyword.getValue() instanceof String word
					&& matches(converters.get(word), converter)) {
				words.add("%" + word);
			}
			if (current instanceof CompositeNode composite) {
				collect(composite.getChildNode(), converters, converter, words);
			}
		}
	}

	private static boolean matches(@Nullable Supplier<DynamicConverter> supplier, Predicate<Object> converter) {
		if (supplier == null) {
			return false;
		}
		try {
			return converter.test(supplier.get());
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
