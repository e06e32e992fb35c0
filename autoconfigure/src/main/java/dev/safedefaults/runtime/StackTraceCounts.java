package dev.safedefaults.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Recognises stack traces in printed text and counts them: the lines that start with
 * {@code "\tat "} and the exception headers they follow, by exception class. Text comes
 * in character by character from any number of threads; each thread keeps its own line
 * state and the counters are {@link LongAdder}s, so no lock is taken.
 * <p>
 * A header names its class only: never the message, which may hold anything. Causes and
 * suppressed exceptions belong to the trace they are printed in.
 */
public final class StackTraceCounts {

	/** Distinct exception classes counted; further ones count as {@value #OTHER}. */
	static final int MAX_CLASSES = 64;

	static final String OTHER = "(other classes)";

	private static final String FRAME_PREFIX = "\tat ";

	private static final String ELIDED_PREFIX = "\t... ";

	/** Enough of a line to recognise a frame and read an exception class name. */
	private static final int MAX_LINE = 256;

	private final LongAdder stackTraces = new LongAdder();

	private final LongAdder frameLines = new LongAdder();

	private final ConcurrentHashMap<String, LongAdder> byClass = new ConcurrentHashMap<>();

	private final ThreadLocal<LineState> lines = ThreadLocal.withInitial(LineState::new);

	/**
	 * Takes one character of the calling thread's output.
	 * @param c the character; {@code '\n'} ends a line
	 */
	void accept(char c) {
		this.lines.get().accept(c);
	}

	/**
	 * Takes a piece of the calling thread's output.
	 * @param text the text
	 * @param newLine whether a line ends after it
	 */
	void accept(String text, boolean newLine) {
		LineState state = this.lines.get();
		for (int i = 0; i < text.length(); i++) {
			state.accept(text.charAt(i));
		}
		if (newLine) {
			state.accept('\n');
		}
	}

	/**
	 * Takes bytes of the calling thread's output, read as Latin-1: enough to see frame
	 * prefixes and class names.
	 * @param buf the bytes
	 * @param off the first
	 * @param len how many
	 */
	void accept(byte[] buf, int off, int len) {
		LineState state = this.lines.get();
		for (int i = off; i < off + len; i++) {
			state.accept((char) (buf[i] & 0xFF));
		}
	}

	/**
	 * What has been counted so far.
	 * @return the counts
	 */
	Counts counts() {
		Map<String, Long> classes = new HashMap<>();
		this.byClass.forEach((name, count) -> classes.put(name, count.sum()));
		return new Counts(this.stackTraces.sum(), this.frameLines.sum(), classes);
	}

	private void countHeader(CharSequence header) {
		int start = 0;
		while (start < header.length() && header.charAt(start) == '\t') {
			start++;
		}
		if (startsWith(header, start, "Caused by: ") || startsWith(header, start, "Suppressed: ")) {
			return;
		}
		this.stackTraces.increment();
		String className = className(header, start);
		LongAdder count = this.byClass.get(className);
		if (count == null) {
			count = (this.byClass.size() < MAX_CLASSES)
					? this.byClass.computeIfAbsent(className, (k) -> new LongAdder())
					: this.byClass.computeIfAbsent(OTHER, (k) -> new LongAdder());
		}
		count.increment();
	}

	/**
	 * The class name at the start of a header such as
	 * {@code java.lang.IllegalStateException: message} or
	 * {@code Exception in thread "main" java.lang.Error}; never the message, which may
	 * hold anything.
	 * @param header the header line
	 * @param from where the header starts in it
	 * @return the class name, {@code (unnamed)} when there is none
	 */
	static String className(CharSequence header, int from) {
		int start = from;
		String uncaught = "Exception in thread \"";
		if (startsWith(header, start, uncaught)) {
			int close = indexOf(header, "\" ", start + uncaught.length());
			start = (close >= 0) ? close + 2 : header.length();
		}
		int end = start;
		while (end < header.length()
				&& (Character.isJavaIdentifierPart(header.charAt(end)) || header.charAt(end) == '.')) {
			end++;
		}
		return (end > start) ? header.subSequence(start, end).toString() : "(unnamed)";
	}

	private static boolean startsWith(CharSequence text, int from, String prefix) {
		if (text.length() - from < prefix.length()) {
			return false;
		}
		for (int i = 0; i < prefix.length(); i++) {
			if (text.charAt(from + i) != prefix.charAt(i)) {
				return false;
			}
		}
		return true;
	}

	private static int indexOf(CharSequence text, String part, int from) {
		for (int i = from; i <= text.length() - part.length(); i++) {
			if (startsWith(text, i, part)) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * What was counted.
	 *
	 * @param stackTraces the stack traces printed (their top exception headers; causes
	 * and suppressed exceptions are part of the same trace)
	 * @param frameLines the {@code "\tat "} lines printed
	 * @param byClass stack traces per exception class
	 */
	public record Counts(long stackTraces, long frameLines, Map<String, Long> byClass) {

		public static final Counts NONE = new Counts(0, 0, Map.of());

	}

	/**
	 * One thread's view of the lines it writes: the line being written and the last line
	 * that was not a frame (the header a frame line follows). Two buffers are swapped so
	 * that ordinary output allocates nothing.
	 */
	private final class LineState {

		private StringBuilder line = new StringBuilder();

		private StringBuilder previous = new StringBuilder();

		private boolean inTrace;

		void accept(char c) {
			if (c == '\n') {
				endLine();
			}
			else if (c != '\r' && this.line.length() < MAX_LINE) {
				this.line.append(c);
			}
		}

		private void endLine() {
			if (startsWith(this.line, 0, FRAME_PREFIX)) {
				StackTraceCounts.this.frameLines.increment();
				if (!this.inTrace) {
					this.inTrace = true;
					countHeader(this.previous);
				}
				this.line.setLength(0);
			}
			else if (this.inTrace && startsWith(this.line, 0, ELIDED_PREFIX)) {
				this.line.setLength(0);
			}
			else {
				this.inTrace = false;
				StringBuilder done = this.line;
				this.line = this.previous;
				this.line.setLength(0);
				this.previous = done;
			}
		}

	}

}
