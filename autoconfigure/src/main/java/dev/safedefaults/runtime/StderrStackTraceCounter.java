package dev.safedefaults.runtime;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A pass-through wrapper around {@code System.err} that counts the stack traces written
 * through it: the lines that start with {@code "\tat "} and the exception headers they
 * follow (incident 8: a tracing agent's {@code printStackTrace()} on every log call
 * serialised a whole service on the {@code System.err} lock).
 * <p>
 * Every method writes exactly what it was given to the original stream, through the same
 * method, and only then looks at the text. The wrapper takes no lock of its own: counters
 * are {@link LongAdder}s, and each thread keeps its own line state. It cannot remove the
 * lock that {@code printStackTrace} takes on the stream it prints to (that is now this
 * wrapper, instead of the original); it makes the storm visible.
 * <p>
 * {@code printf}/{@code format} output is passed on but not looked at: the JDK prints
 * stack traces line by line with {@code println}.
 */
final class StderrStackTraceCounter extends PrintStream {

	/** Distinct exception classes counted; further ones count as {@value #OTHER}. */
	static final int MAX_CLASSES = 64;

	static final String OTHER = "(other classes)";

	private static final String FRAME_PREFIX = "\tat ";

	private static final String ELIDED_PREFIX = "\t... ";

	/** Enough of a line to recognise a frame and read an exception class name. */
	private static final int MAX_LINE = 256;

	private final PrintStream original;

	private final LongAdder stackTraces = new LongAdder();

	private final LongAdder frameLines = new LongAdder();

	private final ConcurrentHashMap<String, LongAdder> byClass = new ConcurrentHashMap<>();

	private final ThreadLocal<LineState> lines = ThreadLocal.withInitial(LineState::new);

	private volatile boolean counting = true;

	/**
	 * Wraps a stream.
	 * @param original the stream to write to
	 */
	StderrStackTraceCounter(PrintStream original) {
		super(original, false, charsetOf(original));
		this.original = original;
	}

	/**
	 * The original's charset, so that {@code charset()} (JDK 18+) answers the same through
	 * the wrapper: {@code System.err} may use {@code stderr.encoding}, not the default.
	 */
	private static Charset charsetOf(PrintStream stream) {
		try {
			return (Charset) PrintStream.class.getMethod("charset").invoke(stream);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return Charset.defaultCharset();
		}
	}

	/**
	 * Replaces {@code System.err} with a counting wrapper around it.
	 * @return the wrapper, now {@code System.err}
	 */
	static StderrStackTraceCounter install() {
		StderrStackTraceCounter counter = new StderrStackTraceCounter(System.err);
		System.setErr(counter);
		return counter;
	}

	/**
	 * Stops counting and puts the original stream back as {@code System.err}, unless
	 * something has replaced this wrapper since (then it stays in place, passing
	 * everything on, so that the later stream keeps working).
	 */
	void uninstall() {
		this.counting = false;
		if (System.err == this) {
			System.setErr(this.original);
		}
	}

	PrintStream original() {
		return this.original;
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

	// Pass-through: the original method, then a look at the text.

	@Override
	public void write(int b) {
		this.original.write(b);
		if (this.counting) {
			this.lines.get().accept((char) (b & 0xFF));
		}
	}

	@Override
	public void write(byte[] buf, int off, int len) {
		this.original.write(buf, off, len);
		if (this.counting) {
			LineState state = this.lines.get();
			for (int i = off; i < off + len; i++) {
				state.accept((char) (buf[i] & 0xFF));
			}
		}
	}

	@Override
	public void flush() {
		this.original.flush();
	}

	@Override
	public void close() {
		this.original.close();
	}

	@Override
	public boolean checkError() {
		return this.original.checkError();
	}

	@Override
	public void print(boolean b) {
		this.original.print(b);
		look(String.valueOf(b), false);
	}

	@Override
	public void print(char c) {
		this.original.print(c);
		look(String.valueOf(c), false);
	}

	@Override
	public void print(int i) {
		this.original.print(i);
		look(String.valueOf(i), false);
	}

	@Override
	public void print(long l) {
		this.original.print(l);
		look(String.valueOf(l), false);
	}

	@Override
	public void print(float f) {
		this.original.print(f);
		look(String.valueOf(f), false);
	}

	@Override
	public void print(double d) {
		this.original.print(d);
		look(String.valueOf(d), false);
	}

	@Override
	public void print(char[] s) {
		this.original.print(s);
		look(new String(s), false);
	}

	@Override
	public void print(String s) {
		this.original.print(s);
		look(String.valueOf(s), false);
	}

	@Override
	public void print(Object obj) {
		String s = String.valueOf(obj);
		this.original.print(s);
		look(s, false);
	}

	@Override
	public void println() {
		this.original.println();
		look("", true);
	}

	@Override
	public void println(boolean x) {
		this.original.println(x);
		look(String.valueOf(x), true);
	}

	@Override
	public void println(char x) {
		this.original.println(x);
		look(String.valueOf(x), true);
	}

	@Override
	public void println(int x) {
		this.original.println(x);
		look(String.valueOf(x), true);
	}

	@Override
	public void println(long x) {
		this.original.println(x);
		look(String.valueOf(x), true);
	}

	@Override
	public void println(float x) {
		this.original.println(x);
		look(String.valueOf(x), true);
	}

	@Override
	public void println(double x) {
		this.original.println(x);
		look(String.valueOf(x), true);
	}

	@Override
	public void println(char[] x) {
		this.original.println(x);
		look(new String(x), true);
	}

	@Override
	public void println(String x) {
		this.original.println(x);
		look(String.valueOf(x), true);
	}

	/**
	 * {@code Throwable.printStackTrace} prints each line with this method.
	 */
	@Override
	public void println(Object x) {
		String s = String.valueOf(x);
		this.original.println(s);
		look(s, true);
	}

	@Override
	public PrintStream printf(String format, Object... args) {
		this.original.printf(format, args);
		return this;
	}

	@Override
	public PrintStream printf(Locale l, String format, Object... args) {
		this.original.printf(l, format, args);
		return this;
	}

	@Override
	public PrintStream format(String format, Object... args) {
		this.original.format(format, args);
		return this;
	}

	@Override
	public PrintStream format(Locale l, String format, Object... args) {
		this.original.format(l, format, args);
		return this;
	}

	@Override
	public PrintStream append(CharSequence csq) {
		print(String.valueOf(csq));
		return this;
	}

	@Override
	public PrintStream append(CharSequence csq, int start, int end) {
		CharSequence cs = (csq != null) ? csq : "null";
		print(cs.subSequence(start, end).toString());
		return this;
	}

	@Override
	public PrintStream append(char c) {
		print(c);
		return this;
	}

	private void look(String text, boolean newLine) {
		if (!this.counting) {
			return;
		}
		LineState state = this.lines.get();
		for (int i = 0; i < text.length(); i++) {
			state.accept(text.charAt(i));
		}
		if (newLine) {
			state.accept('\n');
		}
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
			count = (this.byClass.size() < MAX_CLASSES) ? this.byClass.computeIfAbsent(className, (k) -> new LongAdder())
					: this.byClass.computeIfAbsent(OTHER, (k) -> new LongAdder());
		}
		count.increment();
	}

	/**
	 * The class name at the start of a header such as {@code java.lang.IllegalStateException: message}
	 * or {@code Exception in thread "main" java.lang.Error}; never the message, which may
	 * hold anything.
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
	record Counts(long stackTraces, long frameLines, Map<String, Long> byClass) {

		static final Counts NONE = new Counts(0, 0, Map.of());

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
				StderrStackTraceCounter.this.frameLines.increment();
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
