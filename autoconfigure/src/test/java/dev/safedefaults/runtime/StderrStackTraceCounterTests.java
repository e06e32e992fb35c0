package dev.safedefaults.runtime;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@OnEveryJdk
class StderrStackTraceCounterTests {

	private final ByteArrayOutputStream written = new ByteArrayOutputStream();

	private final StderrStackTraceCounter counter = new StderrStackTraceCounter(
			new PrintStream(this.written, true, StandardCharsets.UTF_8));

	private static Exception withCause() {
		return new IllegalStateException("outer", new ArrayIndexOutOfBoundsException("Index 5 out of bounds"));
	}

	@Test
	void printStackTraceIsCountedAsOneTraceWithItsFrameLines() {
		Exception exception = withCause();
		exception.printStackTrace(this.counter);
		String printed = this.written.toString(StandardCharsets.UTF_8);
		long atLines = printed.lines().filter((line) -> line.startsWith("\tat ")).count();
		StackTraceCounts.Counts counts = this.counter.counts();
		assertThat(counts.stackTraces()).isEqualTo(1);
		assertThat(counts.frameLines()).isEqualTo(atLines).isPositive();
		assertThat(counts.byClass()).containsOnlyKeys("java.lang.IllegalStateException");
	}

	@Test
	void manyTracesAreCountedByClass() {
		for (int i = 0; i < 3; i++) {
			new ArrayIndexOutOfBoundsException(i).printStackTrace(this.counter);
		}
		new IllegalArgumentException("x").printStackTrace(this.counter);
		assertThat(this.counter.counts().byClass()).containsEntry("java.lang.ArrayIndexOutOfBoundsException", 3L)
			.containsEntry("java.lang.IllegalArgumentException", 1L);
		assertThat(this.counter.counts().stackTraces()).isEqualTo(4);
	}

	@Test
	void writesExactlyWhatAPlainStreamWouldWrite() {
		ByteArrayOutputStream direct = new ByteArrayOutputStream();
		PrintStream plain = new PrintStream(direct, true, StandardCharsets.UTF_8);
		for (PrintStream stream : new PrintStream[] { this.counter, plain }) {
			withCause().printStackTrace(stream);
			stream.print("a");
			stream.print(1);
			stream.print('c');
			stream.print(2.5);
			stream.print(new char[] { 'x', 'y' });
			stream.print((Object) null);
			stream.println();
			stream.printf("%s=%d%n", "k", 3);
			stream.append("seq").append('!').append("abcdef", 1, 3);
			stream.write("bytes\n".getBytes(StandardCharsets.UTF_8), 0, 6);
			stream.write('\n');
			stream.println("ü €");
			stream.flush();
		}
		assertThat(this.written.toByteArray()).isEqualTo(direct.toByteArray());
	}

	@Test
	void bytesWrittenDirectlyAreCountedToo() {
		String trace = "java.lang.IllegalStateException: boom\n\tat com.example.A.b(A.java:1)\n"
				+ "\tat com.example.C.d(C.java:2)\n";
		byte[] bytes = trace.getBytes(StandardCharsets.UTF_8);
		this.counter.write(bytes, 0, bytes.length);
		assertThat(this.counter.counts().stackTraces()).isEqualTo(1);
		assertThat(this.counter.counts().frameLines()).isEqualTo(2);
		assertThat(this.counter.counts().byClass()).containsOnlyKeys("java.lang.IllegalStateException");
	}

	@Test
	void theClassOfAnUncaughtExceptionHeaderIsReadWithoutItsMessage() {
		assertThat(StackTraceCounts.className("Exception in thread \"main\" java.lang.Error: secret=1", 0))
			.isEqualTo("java.lang.Error");
		assertThat(StackTraceCounts.className("com.example.Failure$Inner", 0)).isEqualTo("com.example.Failure$Inner");
	}

	@Test
	void ordinaryOutputCountsNothing() {
		this.counter.println("Started in 3.2 s");
		this.counter.println("\tindented, but not a frame");
		assertThat(this.counter.counts()).isEqualTo(new StackTraceCounts.Counts(0, 0, Map.of()));
	}

	@Test
	void installReplacesSystemErrAndUninstallPutsTheOriginalBack() {
		PrintStream before = System.err;
		StderrStackTraceCounter installed = StderrStackTraceCounter.install();
		try {
			assertThat(System.err).isSameAs(installed);
			assertThat(installed.original()).isSameAs(before);
		}
		finally {
			installed.uninstall();
		}
		assertThat(System.err).isSameAs(before);
	}

	@Test
	void uninstallLeavesALaterReplacementInPlace() {
		PrintStream before = System.err;
		StderrStackTraceCounter installed = StderrStackTraceCounter.install();
		PrintStream later = new PrintStream(installed, true);
		System.setErr(later);
		try {
			installed.uninstall();
			assertThat(System.err).isSameAs(later);
		}
		finally {
			System.setErr(before);
		}
	}

}
