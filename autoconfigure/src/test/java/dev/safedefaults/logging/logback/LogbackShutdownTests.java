package dev.safedefaults.logging.logback;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.safedefaults.logging.stop.LastLineWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stop on Logback: the wrapped appenders' queues written within the shutdown timeout,
 * what a stalled output keeps counted in the same last line as on Log4j2. Covers
 * {@code LogQueue}, each wrapped appender as the stop sees it: awaited until empty, its
 * backlog counted, its output written to past the queue.
 */
@Tag(LogbackFixtures.TAG)
class LogbackShutdownTests {

	private final LoggerContext context = LogbackFixtures.context();

	private final List<String> lastLines = new CopyOnWriteArrayList<>();

	@TempDir
	Path directory;

	@AfterEach
	void stop() {
		this.context.stop();
	}

	private Logger root() {
		return this.context.getLogger(Logger.ROOT_LOGGER_NAME);
	}

	private LogbackFixtures.Recording wrapped(boolean held) {
		LogbackFixtures.Recording recording = new LogbackFixtures.Recording("STDOUT", held);
		recording.setContext(this.context);
		recording.start();
		root().addAppender(recording);
		new LogbackAsyncWrapping(this.context,
				new WrappingSettings(128, true, Level.INFO, LogbackFixtures.waitingALongTime()))
			.afterPropertiesSet();
		return recording;
	}

	private LogbackShutdown shutdown(Duration timeout) {
		LastLineWriter lastLine = new LastLineWriter(
				(line, severe) -> this.lastLines.add((severe ? "ERROR " : "WARN ") + line),
				() -> new PrintStream(OutputStream.nullOutputStream()), this.directory, Duration.ofSeconds(30));
		return new LogbackShutdown(this.context, timeout, lastLine);
	}

	@Test
	void queuedEventsAreWrittenThenTheContextStops() throws Exception {
		LogbackFixtures.Recording stalled = wrapped(true);
		root().info("one");
		stalled.awaitEntered();
		root().warn("two");
		root().error("three");
		stalled.release();
		shutdown(Duration.ofSeconds(30)).drain(System.nanoTime() + Duration.ofSeconds(30).toNanos());
		assertThat(stalled.messages()).containsExactly("one", "two", "three");
		assertThat(this.lastLines).isEmpty();
		assertThat(stalled.isStarted()).isFalse();
		assertThat(this.context.isStarted()).isFalse();
	}

	@Test
	void whatAStalledOutputKeepsIsCountedInTheLastLineAndTheContextIsLeftRunning() throws Exception {
		LogbackFixtures.Recording stalled = wrapped(true);
		root().info("held by the stalled output");
		stalled.awaitEntered();
		root().info("queued");
		root().warn("queued warning");
		root().error("queued error");
		try {
			shutdown(Duration.ofMillis(100)).drain(System.nanoTime() + Duration.ofSeconds(30).toNanos());
			assertThat(this.lastLines)
				.containsExactly("ERROR safe-defaults: 4 log events not written at shutdown (2 WARN or ERROR)");
			assertThat(this.context.isStarted()).isTrue();
		}
		finally {
			stalled.release();
		}
	}

	@Test
	void theWatchdogCountsWhatIsQueuedAtTheDeadline() throws Exception {
		LogbackFixtures.Recording stalled = wrapped(true);
		root().info("held");
		stalled.awaitEntered();
		root().warn("queued warning");
		try {
			shutdown(Duration.ofSeconds(30)).reportBacklog();
			assertThat(this.lastLines)
				.containsExactly("ERROR safe-defaults: 2 log events not written at shutdown (1 WARN or ERROR)");
		}
		finally {
			stalled.release();
		}
	}

	@Test
	void theLastLineGoesPastTheQueueToTheApplicationsAppender() {
		LogbackFixtures.Recording recording = wrapped(false);
		new LogbackLastLine(this.context).write("the line", true);
		// Written on this thread, directly: not queued behind what is stuck.
		assertThat(recording.threadName()).isEqualTo(Thread.currentThread().getName());
		ILoggingEvent event = recording.written().get(0);
		assertThat(event.getFormattedMessage()).isEqualTo("the line");
		assertThat(event.getLevel()).isEqualTo(Level.ERROR);
		assertThat(event.getLoggerName()).isEqualTo(LastLineWriter.LOGGER_NAME);
	}

}
