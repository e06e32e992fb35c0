package dev.safedefaults.logging.stacktrace;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What makes two throwables the same kind for {@code %throttledEx}, on either logging
 * system.
 */
class ThrowableKindTests {

	@Test
	void theKindIsTheClassesAndTheFirstThreeFramesOutsideTheJdk() {
		IllegalStateException first = withTrace(new IllegalStateException("x"), jdkFrame("java.lang.ClassLoader", 1),
				frame("com.example.A", 1), jdkFrame("java.lang.reflect.Method", 1), frame("com.example.B", 2),
				frame("com.example.C", 3), frame("com.example.D", 4));
		IllegalStateException otherJdkFramesAndFourthFrame = withTrace(new IllegalStateException("y"),
				jdkFrame("java.lang.ClassLoader", 99), frame("com.example.A", 1), jdkFrame("jdk.internal.X", 7),
				frame("com.example.B", 2), frame("com.example.C", 3), frame("com.example.Other", 40));
		IllegalStateException otherThirdFrame = withTrace(new IllegalStateException("z"), frame("com.example.A", 1),
				frame("com.example.B", 2), frame("com.example.C", 30));
		assertThat(ThrowableKind.of(first)).isEqualTo(ThrowableKind.of(otherJdkFramesAndFourthFrame));
		assertThat(ThrowableKind.of(first)).isNotEqualTo(ThrowableKind.of(otherThirdFrame));
		assertThat(ThrowableKind.of(first))
			.isNotEqualTo(ThrowableKind.of(withTrace(new IllegalArgumentException("x"), first.getStackTrace())));
	}

	private static StackTraceElement frame(String className, int line) {
		return new StackTraceElement(className, "call", className + ".java", line);
	}

	private static StackTraceElement jdkFrame(String className, int line) {
		return new StackTraceElement("app", "java.base", "17", className, "invoke", "X.java", line);
	}

	private static <T extends Throwable> T withTrace(T throwable, StackTraceElement... trace) {
		throwable.setStackTrace(trace);
		return throwable;
	}

}
