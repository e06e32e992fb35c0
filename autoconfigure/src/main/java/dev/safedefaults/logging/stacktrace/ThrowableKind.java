package dev.safedefaults.logging.stacktrace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What makes two throwables "the same kind" for throttling: the class of the throwable
 * and of each of its causes, each followed by its first three stack frames outside the
 * JDK (the JDK's own frames, a class loader or a reflective call, are the same for every
 * failure, the caller a few frames further up is what tells failures apart). The message
 * is not part of it: it usually carries an id or a URL that differs on every repeat.
 */
final class ThrowableKind {

	/** Frames outside the JDK that identify a throwable (the grouping of issue 8). */
	static final int FRAMES = 3;

	/** Causes looked at; the deeper ones never decide a kind. */
	static final int MAX_CAUSES = 16;

	/**
	 * For each throwable of the chain: its class name, then up to three
	 * StackTraceElements.
	 */
	private final Object[] parts;

	private final int hash;

	private ThrowableKind(Object[] parts) {
		this.parts = parts;
		this.hash = Arrays.hashCode(parts);
	}

	/**
	 * The kind of a throwable.
	 * @param throwable the throwable
	 * @return its kind
	 */
	static ThrowableKind of(Throwable throwable) {
		List<Object> parts = new ArrayList<>(8);
		List<Throwable> seen = new ArrayList<>(2);
		Throwable current = throwable;
		while (current != null && seen.size() <= MAX_CAUSES && !containsIdentical(seen, current)) {
			seen.add(current);
			parts.add(current.getClass().getName());
			int frames = 0;
			StackTraceElement[] trace = current.getStackTrace();
			for (StackTraceElement element : (trace != null) ? trace : new StackTraceElement[0]) {
				if (frames == FRAMES) {
					break;
				}
				if (element != null && !isJdkFrame(element)) {
					parts.add(element);
					frames++;
				}
			}
			current = current.getCause();
		}
		return new ThrowableKind(parts.toArray());
	}

	private static boolean containsIdentical(List<Throwable> throwables, Throwable throwable) {
		for (Throwable candidate : throwables) {
			if (candidate == throwable) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a frame belongs to the JDK: a frame of a {@code java.*} or {@code jdk.*}
	 * module or, for frames without a module (built by hand or deserialized), a class in
	 * {@code java.}, {@code jdk.} or {@code sun.}.
	 * @param element the frame
	 * @return whether it is the JDK's
	 */
	static boolean isJdkFrame(StackTraceElement element) {
		String module = element.getModuleName();
		if (module != null) {
			return module.startsWith("java.") || module.startsWith("jdk.");
		}
		String className = element.getClassName();
		return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.");
	}

	@Override
	public boolean equals(Object other) {
		return (this == other) || (other instanceof ThrowableKind kind && this.hash == kind.hash
				&& Arrays.equals(this.parts, kind.parts));
	}

	@Override
	public int hashCode() {
		return this.hash;
	}

	@Override
	public String toString() {
		return Arrays.toString(this.parts);
	}

}
