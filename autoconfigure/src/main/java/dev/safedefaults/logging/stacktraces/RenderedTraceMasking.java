package dev.safedefaults.logging.stacktraces;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.check.SecretMasker;

/**
 * Masks credentials in the messages of a stack trace that {@code %throttledEx} has just
 * rendered (issue 25): drivers and HTTP clients put whole URLs in their messages
 * (Connector/J quotes a URL's authority segment, Feign a URL with user-info). The rules are
 * the starter's own, {@link SecretMasker#maskText(String)}: user-info in URLs, JDBC URLs
 * rendered for display, the values of {@code password=}-style keys, {@code Authorization}
 * and {@code Bearer} tokens; a line that holds a secret also has its control characters
 * escaped.
 * <p>
 * Only what is known to be safe is left as it is: a frame line in the renderer's grammar
 * ({@code at class.method(File.java:12) ~[jar:version]}, {@code ... 5 more}) and the class
 * name at the head of a throwable's line. Every other line, the message and its
 * continuation lines, goes through the masker; a secret that a message splits over two
 * lines is not recognised.
 */
final class RenderedTraceMasking {

	/**
	 * A frame line of Log4j's stack trace renderers: no {@code =}, {@code @}-free jar
	 * information, no whitespace inside the frame, so no key-value pair, URL user-info or
	 * token fits in it.
	 */
	private static final Pattern FRAME_LINE = Pattern
		.compile("\\t*(?:at [\\w$.<>/@+\\-]+\\((?:[\\w$.\\-]+(?::\\d+)?|Unknown Source|Native Method)\\)"
				+ "(?: ~?\\[[^\\]\\s=@]*\\])?|\\.\\.\\. \\d+ (?:more|common frames omitted))");

	/**
	 * What starts a throwable's own line (the trace's first line, or one with a caption): the
	 * caption, then its fully qualified class name and ": ".
	 */
	private static final Pattern THROWABLE_HEAD = Pattern
		.compile("\\t*(?:Caused by: |Suppressed: )?(?:\\[CIRCULAR REFERENCE: )?[\\w$]+(?:\\.[\\w$]+)+(?:: |$)");

	private static final Pattern CAPTION = Pattern.compile("\\t*(?:Caused by: |Suppressed: )");

	private RenderedTraceMasking() {
	}

	/**
	 * Masks the rendered trace in place.
	 * @param buffer the buffer
	 * @param start where the trace starts in it
	 * @param separator the renderer's line separator
	 */
	static void mask(StringBuilder buffer, int start, String separator) {
		if (separator.isEmpty()) {
			maskLine(buffer, start, buffer.length(), true);
			return;
		}
		int lineStart = start;
		boolean first = true;
		while (lineStart < buffer.length()) {
			int end = buffer.indexOf(separator, lineStart);
			int lineEnd = (end < 0) ? buffer.length() : end;
			int shift = maskLine(buffer, lineStart, lineEnd, first);
			first = first && lineStart == lineEnd;
			lineStart = lineEnd + shift + ((end < 0) ? 0 : separator.length());
		}
	}

	/** Masks one line; returns how many characters it grew by. */
	private static int maskLine(StringBuilder buffer, int start, int end, boolean firstLine) {
		if (start == end) {
			return 0;
		}
		String line = buffer.substring(start, end);
		if (FRAME_LINE.matcher(line).matches()) {
			return 0;
		}
		// A message's continuation lines get no head: "db.password: x" there is message text.
		Matcher head = THROWABLE_HEAD.matcher(line);
		boolean headAllowed = firstLine || CAPTION.matcher(line).lookingAt();
		int from = (headAllowed && head.lookingAt()) ? head.end() : leadingTabs(line);
		String text = line.substring(from);
		String masked = SecretMasker.maskText(text);
		if (masked == null || masked.equals(text) || masked.equals(SecretMasker.escapeControlCharacters(text))) {
			// Nothing secret: the line stays as the renderer wrote it.
			return 0;
		}
		buffer.replace(start + from, end, masked);
		return masked.length() - text.length();
	}

	private static int leadingTabs(String line) {
		int tabs = 0;
		while (tabs < line.length() && line.charAt(tabs) == '\t') {
			tabs++;
		}
		return tabs;
	}

}
