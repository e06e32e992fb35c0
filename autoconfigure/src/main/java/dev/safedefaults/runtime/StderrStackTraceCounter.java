package dev.safedefaults.runtime;

import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.Locale;

/**
 * A pass-through wrapper around {@code System.err} that counts the stack traces written
 * through it: the lines that start with {@code "\tat "} and the exception headers they
 * follow (incident 8: a tracing agent's {@code printStackTrace()} on every log call
 * serialised a whole service on the {@code System.err} lock).
 * <p>
 * Every method writes exactly what it was given to the original stream, through the same
 * method, and only then passes the text to {@link StackTraceCounts}, which recognises the
 * traces. The wrapper takes no lock of its own. It cannot remove the lock that
 * {@code printStackTrace} takes on the stream it prints to (that is now this wrapper,
 * instead of the original); it makes the storm visible.
 * <p>
 * {@code printf}/{@code format} output is passed on but not looked at: the JDK prints
 * stack traces line by line with {@code println}.
 */
public final class StderrStackTraceCounter extends PrintStream {

	private final PrintStream original;

	private final StackTraceCounts stackTraces = new StackTraceCounts();

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
	 * The original's charset, so that {@code charset()} (JDK 18+) answers the same
	 * through the wrapper: {@code System.err} may use {@code stderr.encoding}, not the
	 * default.
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
	public static StderrStackTraceCounter install() {
		StderrStackTraceCounter counter = new StderrStackTraceCounter(System.err);
		System.setErr(counter);
		return counter;
	}

	/**
	 * Stops counting and puts the original stream back as {@code System.err}, unless
	 * something has replaced this wrapper since (then it stays in place, passing
	 * everything on, so that the later stream keeps working).
	 */
	public void uninstall() {
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
	public StackTraceCounts.Counts counts() {
		return this.stackTraces.counts();
	}

	// Pass-through: the original method, then a look at the text.

	@Override
	public void write(int b) {
		this.original.write(b);
		if (this.counting) {
			this.stackTraces.accept((char) (b & 0xFF));
		}
	}

	@Override
	public void write(byte[] buf, int off, int len) {
		this.original.write(buf, off, len);
		if (this.counting) {
			this.stackTraces.accept(buf, off, len);
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
		if (this.counting) {
			this.stackTraces.accept(text, newLine);
		}
	}

}
