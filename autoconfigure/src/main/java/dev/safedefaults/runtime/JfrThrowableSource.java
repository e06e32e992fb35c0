package dev.safedefaults.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.safedefaults.StarterThreads;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingStream;
import org.jspecify.annotations.Nullable;

/**
 * Reads the JDK's flight recorder in-process, without an agent: one
 * {@link RecordingStream} with only {@code jdk.ExceptionStatistics} enabled (the JVM's
 * cumulative count of created throwables, one small event per sampling period), and, for
 * a diagnostic window, {@code jdk.JavaExceptionThrow} with stack traces. The only class
 * of the starter that touches {@code jdk.jfr}: it is created only when that module is
 * present.
 * <p>
 * What the JDK counts: every throwable constructed, caught or not, thrown or not; an
 * {@link Error} counts twice (as an error and as a throwable), on JDK 17 as on 25.
 */
public final class JfrThrowableSource implements ThrowableSource {

	/** The class whose presence says the flight recorder's consumer API is there. */
	public static final String RECORDING_STREAM = "jdk.jfr.consumer.RecordingStream";

	private static final String STATISTICS = "jdk.ExceptionStatistics";

	private static final String EXCEPTION_THROW = "jdk.JavaExceptionThrow";

	private static final String ERROR_THROW = "jdk.JavaErrorThrow";

	/**
	 * Bounds the recorder's repository on disk (the temp directory). Without a bound a
	 * stream keeps everything; with only the statistics event it writes ~100 bytes a
	 * second, and a window a few MB.
	 */
	private static final long MAX_REPOSITORY_BYTES = 16L * 1024 * 1024;

	private static final Duration MAX_REPOSITORY_AGE = Duration.ofMinutes(10);

	/** Distinct stack traces whose site is remembered during one window. */
	private static final int MAX_CACHED_STACKS = 8192;

	private volatile @Nullable RecordingStream stream;

	private volatile @Nullable ScheduledExecutorService windowTimer;

	private volatile boolean closed;

	private volatile long throwables;

	private volatile @Nullable Window window;

	private volatile @Nullable Duration samplingPeriod;

	// Read and written on the stream's thread only.
	private @Nullable Instant latestTime;

	private boolean freshSample;

	/**
	 * Why this JVM's flight recorder cannot be used. Call only when the {@code jdk.jfr}
	 * classes are present.
	 * @return the reason, {@code null} when it can be used
	 */
	public static @Nullable String unavailableReason() {
		try {
			return FlightRecorder.isAvailable() ? null
					: "this JVM's flight recorder is switched off or not built in (FlightRecorder.isAvailable() is false)";
		}
		catch (RuntimeException | LinkageError ex) {
			return "this JVM's flight recorder cannot be used: " + ex;
		}
	}

	@Override
	public void start(Duration samplingPeriod, Listener listener) {
		this.closed = false;
		this.samplingPeriod = samplingPeriod;
		RecordingStream recordingStream = new RecordingStream();
		try {
			recordingStream.setMaxSize(MAX_REPOSITORY_BYTES);
			recordingStream.setMaxAge(MAX_REPOSITORY_AGE);
			recordingStream.enable(STATISTICS).withPeriod(samplingPeriod);
			recordingStream.onEvent(STATISTICS, (event) -> onStatistics(event, listener));
			recordingStream.onFlush(() -> onFlush(listener));
			this.windowTimer = Executors
				.newSingleThreadScheduledExecutor((runnable) -> daemon(runnable, "safe-defaults-runtime-window"));
			this.stream = recordingStream;
			// Its own daemon thread: RecordingStream.startAsync() dispatches on a
			// non-daemon
			// thread, which would keep a JVM whose context was never closed from exiting.
			daemon(() -> run(recordingStream, listener), "safe-defaults-runtime-jfr").start();
		}
		catch (RuntimeException ex) {
			close();
			recordingStream.close();
			throw ex;
		}
	}

	private void run(RecordingStream recordingStream, Listener listener) {
		try {
			recordingStream.start();
		}
		catch (Throwable ex) {
			if (!this.closed) {
				listener.onFailure(ex);
			}
		}
	}

	private void onStatistics(RecordedEvent event, Listener listener) {
		Instant time = event.getStartTime();
		this.throwables = event.getLong("throwables");
		this.latestTime = time;
		this.freshSample = true;
		Window current = this.window;
		Instant end = (current != null) ? current.end : null;
		// Events are dispatched in time order within each flush, and a flush carries
		// every
		// event committed before it: once a reading later than the window's end arrives,
		// all of the window's throws have been seen.
		if (current != null && end != null && time.isAfter(end)) {
			this.window = null;
			RecordingStream recordingStream = this.stream;
			if (recordingStream != null) {
				recordingStream.remove(current.handler);
			}
			listener.onWindow(current.counter.toSites(current.start, Duration.between(current.start, end)));
		}
	}

	private void onFlush(Listener listener) {
		Instant time = this.latestTime;
		if (this.freshSample && time != null) {
			this.freshSample = false;
			listener.onSample(time, this.throwables);
		}
	}

	@Override
	public void openWindow(Duration length) {
		RecordingStream recordingStream = this.stream;
		ScheduledExecutorService timer = this.windowTimer;
		if (recordingStream == null || timer == null || this.window != null) {
			return;
		}
		timer.execute(() -> {
			Window opened = new Window(Instant.now());
			this.window = opened;
			recordingStream.onEvent(EXCEPTION_THROW, opened.handler);
			// Stack traces first, then enabled: enable(name).withStackTrace() would apply
			// two
			// settings and record throws without a stack in between.
			// On JDK 25, jdk.JavaExceptionThrow alone records nothing (seen on 25.0.x: it
			// takes its timestamp from the error event); with jdk.JavaErrorThrow enabled
			// too
			// it records every throw. Errors are also exception events, so only those are
			// read.
			recordingStream.disable(ERROR_THROW).withStackTrace();
			recordingStream.disable(EXCEPTION_THROW).withStackTrace();
			recordingStream.enable(ERROR_THROW);
			recordingStream.enable(EXCEPTION_THROW);
			timer.schedule(() -> {
				recordingStream.disable(EXCEPTION_THROW);
				recordingStream.disable(ERROR_THROW);
				opened.end = Instant.now();
			}, length.toNanos(), TimeUnit.NANOSECONDS);
		});
	}

	@Override
	public long throwables() {
		return this.throwables;
	}

	@Override
	public void close() {
		this.closed = true;
		ScheduledExecutorService timer = this.windowTimer;
		if (timer != null) {
			timer.shutdownNow();
		}
		RecordingStream recordingStream = this.stream;
		if (recordingStream != null) {
			recordingStream.close();
		}
	}

	@Override
	public String describe() {
		Duration period = this.samplingPeriod;
		return "the flight recorder's " + STATISTICS
				+ ((period != null) ? " every " + period.toMillis() + " ms" : ", not started");
	}

	private static Thread daemon(Runnable runnable, String name) {
		return StarterThreads.newThread(runnable, name);
	}

	private static List<ThrowSites.Frame> frames(RecordedStackTrace stackTrace) {
		List<RecordedFrame> recorded = stackTrace.getFrames();
		List<ThrowSites.Frame> frames = new ArrayList<>(recorded.size());
		for (RecordedFrame frame : recorded) {
			RecordedMethod method = frame.getMethod();
			RecordedClass type = (method != null) ? method.getType() : null;
			if (type == null) {
				continue;
			}
			RecordedClassLoader loader = type.getClassLoader();
			String className = type.getName();
			frames.add(new ThrowSites.Frame(className, method.getName(), frame.getLineNumber(),
					ThrowSites.isJdk(className, (loader != null) ? loader.getName() : null)));
		}
		return frames;
	}

	/**
	 * One diagnostic window: counts the throws recorded between its start and its end.
	 * Its handler runs on the stream's thread only.
	 */
	private static final class Window {

		private final Instant start;

		private volatile @Nullable Instant end;

		private final ThrowSites.Counter counter = new ThrowSites.Counter();

		// The recorder shares one stack trace object between the events of a chunk that
		// have the same stack: the site is worked out once per stack.
		private final Map<RecordedStackTrace, List<String>> sitesByStack = new IdentityHashMap<>();

		private final Consumer<RecordedEvent> handler = this::onThrow;

		Window(Instant start) {
			this.start = start;
		}

		private void onThrow(RecordedEvent event) {
			Instant time = event.getStartTime();
			Instant windowEnd = this.end;
			if (time.isBefore(this.start) || (windowEnd != null && time.isAfter(windowEnd))) {
				return;
			}
			RecordedStackTrace stackTrace = event.getStackTrace();
			if (stackTrace == null) {
				// recorded for another recording that does not ask for stacks: no site to
				// name
				return;
			}
			RecordedClass thrown = event.getClass("thrownClass");
			String thrownClass = (thrown != null) ? thrown.getName() : "(unknown class)";
			List<String> site = this.sitesByStack.get(stackTrace);
			if (site == null) {
				site = ThrowSites.siteFrames(thrownClass, frames(stackTrace));
				if (this.sitesByStack.size() < MAX_CACHED_STACKS) {
					this.sitesByStack.put(stackTrace, site);
				}
			}
			this.counter.add(thrownClass, site);
		}

	}

}
