package dev.safedefaults.logging.stacktrace;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.safedefaults.check.SecretMasker;

/**
 * Masks credentials in the messages of a stack trace that {@code %throttledEx} has just
 * rendered (issue 25): drivers and HTTP clients put whole URLs in their messages
 * (Connector/J quotes a URL's authority segment, Feign a URL with user-info). The rules
 * are the starter's own, {@link SecretMasker#maskText(String)}: user-info in URLs, JDBC
 * URLs rendered for display, the values of {@code password=}-style keys,
 * {@code Authorization} and {@code Bearer} tokens; a line that holds a secret also has
 * its control characters escaped.
 * <p>
 * Only what is known to be safe is left as it is: a frame line in the renderer's grammar
 * ({@code at class.method(File.java:12) ~[jar:version]}, {@code ... 5 more}) and the
 * class name at the head of a throwable's line. Every other line, the message and its
 * continuation lines, goes through the masker; a secret that a message splits over two
 * lines is not recognised.
 */
final class RenderedTraceMasking {

	/** The parenthesised locations of a frame that hold a space. */
	private static final String[] LOCATIONS_WITH_SPACE = { "(Native Method)", "(Unknown Source)" };

	/**
	 * What starts a throwable's own line (the trace's first line, or one with a caption):
	 * the caption, then its fully qualified class name and ": ".
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
		if (isFrameLine(line)) {
			return 0;
		}
		// A message's continuation lines get no head: "db.password: x" there is message
		// text.
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

	/**
	 * Whether a line is a frame line of Log4j's renderers
	 * ({@code at class.method(File.java:12)
	 * ~[jar:version]}, {@code ... 5 more}) that can hold no secret: no {@code =}, no
	 * quote, no {@code ://} and no {@code @} after the frame, and a space only before the
	 * jar information or in {@code (Native Method)}, so no key-value pair, URL user-info
	 * or token fits in it. A scan, not a regular expression: a trace has dozens of these
	 * lines.
	 */
	static boolean isFrameLine(String line) {
		int start = leadingTabs(line);
		if (line.startsWith("... ", start)) {
			return line.endsWith(" more") && isDigits(line, start + 4, line.length() - 5);
		}
		if (!line.startsWith("at ", start)) {
			return false;
		}
		int open = line.indexOf('(', start);
		int close = (open < 0) ? -1 : line.indexOf(')', open + 1);
		if (close < 0 || !isFrameText(line, start + 3, open, true, false)) {
			return false;
		}
		int space = line.indexOf(' ', open);
		if (space >= 0 && space < close && !isLocationWithSpace(line, open, close)) {
			return false;
		}
		if (!isFrameText(line, open + 1, close, false, true)) {
			return false;
		}
		if (close + 1 == line.length()) {
			return true;
		}
		// The jar information: " ~[name.jar:version]" or " [?:?]".
		int jar = line.startsWith(" ~[", close + 1) ? close + 4 : line.startsWith(" [", close + 1) ? close + 3 : -1;
		return jar > 0 && line.endsWith("]") && isFrameText(line, jar, line.length() - 1, false, false);
	}

	private static boolean isLocationWithSpace(String line, int open, int close) {
		for (String location : LOCATIONS_WITH_SPACE) {
			if (close - open + 1 == location.length() && line.startsWith(location, open)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a part of a frame line holds only what class, module, file and jar names
	 * hold: a {@code @} only in the class part (a module's version), a {@code :} only
	 * after it (line numbers, jar versions) and never as {@code ://}, a space only where
	 * checked.
	 */
	private static boolean isFrameText(String line, int from, int to, boolean classPart, boolean spaceChecked) {
		for (int i = from; i < to; i++) {
			char c = line.charAt(i);
			if (Character.isLetterOrDigit(c) || c == '.' || c == '$' || c == '_' || c == '-' || c == '<' || c == '>'
					|| c == '+' || c == '?' || (c == ' ' && spaceChecked) || (c == '@' && classPart)) {
				continue;
			}
			if (c == '/' && !(i > from && line.charAt(i - 1) == ':')) {
				continue;
			}
			if (c == ':' && !classPart) {
				continue;
			}
			return false;
		}
		return true;
	}

	private static boolean isDigits(String line, int from, int to) {
		if (from >= to) {
			return false;
		}
		for (int i = from; i < to; i++) {
			if (!Character.isDigit(line.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	private static int leadingTabs(String line) {
		int tabs = 0;
		while (tabs < line.length() && line.charAt(tabs) == '\t') {
			tabs++;
		}
		return tabs;
	}

}
