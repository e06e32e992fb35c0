package dev.safedefaults.benchmarks.logging;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.logging.stacktrace.StackTraceThrottling;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.DefaultConfiguration;
import org.apache.logging.log4j.core.impl.MutableLogEvent;
import org.apache.logging.log4j.core.layout.ByteBufferDestination;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * Incident 6: in an error storm every failure was logged with its stack trace, and the
 * one async logging thread that renders them fell minutes behind. What that thread spends
 * on one ERROR with a throwable, and how many bytes it writes, with Spring Boot's pattern
 * and:
 * <ul>
 * <li>{@code bootXwEx}: Boot's default {@code %xwEx}, the full trace on every repeat (the
 * anti-pattern in a storm);</li>
 * <li>{@code starterThrottledEx}: the starter's {@code %throttledEx} on a repeat: one
 * line;</li>
 * <li>{@code starterThrottledExFirstOfAKind}: {@code %throttledEx} printing the full
 * trace, as it does for the first of a kind: {@code %xwEx} plus telling the kind and
 * masking credentials in its messages. Every event is of a new kind here (more kinds in
 * turn than the map holds), the worst case;</li>
 * <li>{@code starterThrottledExFirstOfAKindWithCredentials}: the same with a URL with
 * user-info in the message and a {@code password:} in the cause's: what masking costs
 * when it has something to mask (issue 25);</li>
 * <li>{@code handWrittenHeaderOnly}: {@code %xwEx{1}}, only the throwable's first line on
 * every event: the incident's own fix (no stack trace ever, not even the first).</li>
 * </ul>
 * The throwable is a real Spring exception chain (a bean whose constructor fails because
 * a downstream call failed; three causes deep): real classes in real jars, which the
 * extended renderer looks up for its {@code ~[jar:version]} suffixes. Bytes per event are
 * printed at setup. Event times move on by a millisecond per event (the date is formatted
 * the same way in all four).
 * <p>
 * {@code ./mvnw -B -Pbenchmarks -pl src/test -am verify -DskipTests
 * -Dbenchmark="StackTraceRenderingBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s"}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class StackTraceRenderingBenchmark {

	/** Spring Boot's file pattern (log4j2-file.xml), without the optional parts. */
	private static final String BOOT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p %pid --- [%t] %-40.40c{1.} : %m%n";

	private final Configuration configuration = new DefaultConfiguration();

	private final DiscardingDestination destination = new DiscardingDestination();

	private Rendering bootXwEx;

	private Rendering throttledEx;

	private Rendering throttledExFirstOfAKind;

	private Rendering throttledExFirstOfAKindWithCredentials;

	private Rendering headerOnly;

	@Setup
	public void setUp() {
		Throwable failure = springFailure();
		this.bootXwEx = new Rendering(layout("%xwEx"), failure);
		this.throttledEx = new Rendering(layout("%throttledEx"), failure);
		this.throttledExFirstOfAKind = new Rendering(layout("%throttledEx"),
				distinctKinds(failure, 2 * StackTraceThrottling.DEFAULT_MAX_KINDS));
		this.throttledExFirstOfAKindWithCredentials = new Rendering(layout("%throttledEx"),
				distinctKinds(withCredentials(failure), 2 * StackTraceThrottling.DEFAULT_MAX_KINDS));
		this.headerOnly = new Rendering(layout("%xwEx{1}"), failure);
		// Past the first three full traces of the kind: what follows are repeats.
		for (int i = 0; i < StackTraceThrottling.DEFAULT_FIRST_N; i++) {
			this.throttledEx.encode(this.destination);
		}
		long xwEx = this.bootXwEx.encode(this.destination);
		long throttled = this.throttledEx.encode(this.destination);
		long first = this.throttledExFirstOfAKind.encode(this.destination);
		long header = this.headerOnly.encode(this.destination);
		String trace = this.bootXwEx.layout.toSerializable(this.bootXwEx.event);
		System.out.printf(Locale.ROOT,
				"%nbytes per ERROR (full trace: %d lines): %%xwEx %d; %%throttledEx repeat %d (%.1fx fewer), "
						+ "first of a kind %d; %%xwEx{1} %d%n",
				trace.lines().count(), xwEx, throttled, (double) xwEx / throttled, first, header);
		String repeat = this.throttledEx.layout.toSerializable(this.throttledEx.event);
		if (!repeat.contains("stack trace elided") || repeat.contains("\tat ")) {
			throw new IllegalStateException("%throttledEx did not elide the repeat: " + repeat);
		}
		String masked = this.throttledExFirstOfAKindWithCredentials.layout
			.toSerializable(this.throttledExFirstOfAKindWithCredentials.event);
		if (masked.contains("Hunter2Secret") || !masked.contains("\tat ")) {
			throw new IllegalStateException("%throttledEx did not mask the full trace: " + masked);
		}
		// Equal but for the digits of the copies' top line numbers.
		if (Math.abs(first - xwEx) > 8) {
			throw new IllegalStateException("%throttledEx did not print the first of a kind in full");
		}
	}

	private PatternLayout layout(String conversionWord) {
		return PatternLayout.newBuilder()
			.withPattern(BOOT_PATTERN + conversionWord)
			.withConfiguration(this.configuration)
			.build();
	}

	/** A bean that cannot be created because its downstream call failed. */
	private static Throwable springFailure() {
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.registerBean(FailingClient.class);
			context.refresh();
		}
		catch (BeansException ex) {
			return ex;
		}
		throw new IllegalStateException("The bean was created");
	}

	/**
	 * The failure with what drivers and clients put in their messages: a URL with
	 * user-info (Feign), and Connector/J's "using password: YES" in the cause; same
	 * frames.
	 */
	private static Throwable withCredentials(Throwable failure) {
		Throwable cause = failure.getCause();
		IllegalStateException login = new IllegalStateException(
				"Access denied for user 'orders'@'10.0.0.7' (using password: YES)");
		login.setStackTrace(cause.getStackTrace());
		BeanCreationException copy = new BeanCreationException(
				"[500] during [GET] to [https://orders:Hunter2Secret@inventory/42]", login);
		copy.setStackTrace(failure.getStackTrace());
		return copy;
	}

	/**
	 * Copies of the failure, each of its own kind (the line of the top frame differs),
	 * with the same causes: they render to as many lines and bytes as the original.
	 */
	private static Throwable[] distinctKinds(Throwable failure, int count) {
		Throwable[] copies = new Throwable[count];
		for (int i = 0; i < count; i++) {
			BeanCreationException copy = new BeanCreationException(failure.getMessage(), failure.getCause());
			StackTraceElement[] trace = failure.getStackTrace();
			StackTraceElement top = trace[0];
			trace[0] = new StackTraceElement(top.getClassLoaderName(), top.getModuleName(), top.getModuleVersion(),
					top.getClassName(), top.getMethodName(), top.getFileName(), 100_000 + i);
			copy.setStackTrace(trace);
			copies[i] = copy;
		}
		return copies;
	}

	@Benchmark
	public long bootXwEx() {
		return this.bootXwEx.encode(this.destination);
	}

	@Benchmark
	public long starterThrottledEx() {
		return this.throttledEx.encode(this.destination);
	}

	@Benchmark
	public long starterThrottledExFirstOfAKind() {
		return this.throttledExFirstOfAKind.encode(this.destination);
	}

	@Benchmark
	public long starterThrottledExFirstOfAKindWithCredentials() {
		return this.throttledExFirstOfAKindWithCredentials.encode(this.destination);
	}

	@Benchmark
	public long handWrittenHeaderOnly() {
		return this.headerOnly.encode(this.destination);
	}

	/** One layout and its ERROR events in turn, a millisecond apart. */
	static final class Rendering {

		final PatternLayout layout;

		final MutableLogEvent event = new MutableLogEvent();

		private final Throwable[] thrown;

		private int next;

		private long time = System.currentTimeMillis();

		Rendering(PatternLayout layout, Throwable... thrown) {
			this.layout = layout;
			this.thrown = thrown;
			this.event.setLoggerName("com.example.orders.OrderController");
			this.event.setLevel(Level.ERROR);
			this.event.setMessage(new SimpleMessage("GET /api/orders/42 failed"));
			this.event.setThreadName("http-nio-8080-exec-17");
			this.event.setThrown(thrown[0]);
			this.event.setTimeMillis(this.time);
		}

		/** Encodes the next event as an appender would; returns the bytes written. */
		long encode(DiscardingDestination destination) {
			this.event.setTimeMillis(++this.time);
			this.event.setThrown(this.thrown[this.next]);
			this.next = (this.next + 1) % this.thrown.length;
			destination.bytes = 0;
			this.layout.encode(this.event, destination);
			return destination.flush();
		}

	}

	/** The failing bean. */
	public static class FailingClient {

		public FailingClient() {
			throw new IllegalStateException("Downstream answered 500 for GET /inventory/42",
					new IOException("Server returned HTTP response code: 500"));
		}

	}

	/** Counts what a layout writes and drops it, like a very fast appender. */
	static final class DiscardingDestination implements ByteBufferDestination {

		private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);

		long bytes;

		@Override
		public ByteBuffer getByteBuffer() {
			return this.buffer;
		}

		@Override
		public ByteBuffer drain(ByteBuffer buf) {
			buf.flip();
			this.bytes += buf.remaining();
			buf.clear();
			return buf;
		}

		@Override
		public void writeBytes(ByteBuffer data) {
			this.bytes += data.remaining();
			data.position(data.limit());
		}

		@Override
		public void writeBytes(byte[] data, int offset, int length) {
			this.bytes += length;
		}

		long flush() {
			drain(this.buffer);
			return this.bytes;
		}

	}

}
