package dev.safedefaults.logging.log4j2;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.logging.stop.LastLineWriter;
import dev.safedefaults.logging.stop.Unwritten;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.async.AsyncLoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The stop on Log4j2's all-async context, as on Logback ({@code LogbackShutdownTests}):
 * what the ring buffer holds is written within the shutdown timeout, then the context
 * stops; what a stalled output keeps is counted in the same last line, and the context is
 * left running. Covers {@code RingBufferBacklog} (the events enqueued and not written
 * yet, WARN and more severe ones apart, read from Log4j's private ring buffer) and
 * {@code Log4jLastLine} (the line goes past the queue to the root logger's appenders).
 */
@OnEveryJdk
class LoggingShutdownTests {

	private final List<String> lastLines = new CopyOnWriteArrayList<>();

	@TempDir
	Path directory;

	private LoggerContext context;

	private RecordingAppender appender;

	@AfterEach
	void stop() {
		if (this.appender != null) {
			this.appender.release();
		}
		if (this.context != null) {
			this.context.stop(10, TimeUnit.SECONDS);
		}
	}

	private Logger start(LoggerContext context, boolean stalled) {
		this.context = context;
		this.appender = RecordingAppender.startAsOnlyAppender(context, stalled);
		return context.getLogger("shutdown");
	}

	private Logger startAllAsync(boolean stalled) {
		return start(new AsyncLoggerContext("shutdown-" + System.nanoTime()), stalled);
	}

	private LoggingShutdown shutdown(Duration timeout) {
		LastLineWriter lastLine = new LastLineWriter(
				(line, severe) -> this.lastLines.add((severe ? "ERROR " : "WARN ") + line),
				() -> new PrintStream(OutputStream.nullOutputStream()), this.directory, Duration.ofSeconds(30));
		return new LoggingShutdown(this.context, timeout, RingBufferBacklog.of(this.context), lastLine);
	}

	@Test
	void queuedEventsAreWrittenThenTheContextStops() throws Exception {
		Logger logger = startAllAsync(true);
		logger.info("one");
		assertThat(this.appender.awaitEntered()).isTrue();
		logger.warn("two");
		logger.error("three");
		assertThat(RingBufferBacklog.of(this.context).hasBacklog()).isTrue();
		this.appender.release();
		shutdown(Duration.ofSeconds(30)).drain(System.nanoTime() + Duration.ofSeconds(30).toNanos());
		assertThat(this.appender.written()).extracting((event) -> event.getMessage().getFormattedMessage())
			.containsExactly("one", "two", "three");
		assertThat(this.lastLines).isEmpty();
		assertThat(this.context.isStopped()).isTrue();
	}

	@Test
	void whatAStalledOutputKeepsIsCountedInTheLastLineAndTheContextIsLeftRunning() throws Exception {
		Logger logger = startAllAsync(true);
		logger.info("held by the stalled output");
		assertThat(this.appender.awaitEntered()).isTrue();
		logger.info("queued");
		logger.warn("queued warning");
		logger.error("queued error");
		shutdown(Duration.ofMillis(100)).drain(System.nanoTime() + Duration.ofSeconds(30).toNanos());
		assertThat(this.lastLines)
			.containsExactly("ERROR safe-defaults: 4 log events not written at shutdown (2 WARN or ERROR)");
		assertThat(this.context.isStarted()).isTrue();
	}

	@Test
	void theBacklogIsTheEventsNotWrittenYetWithWarnAndMoreSevereApart() throws Exception {
		Logger logger = startAllAsync(true);
		logger.debug("held by the stalled output");
		assertThat(this.appender.awaitEntered()).isTrue();
		for (int i = 0; i < 3; i++) {
			logger.info("info {}", i);
		}
		logger.warn("warning");
		logger.error("error");
		logger.fatal("fatal");
		RingBufferBacklog backlog = RingBufferBacklog.of(this.context);
		assertThat(backlog.count()).isEqualTo(new Unwritten(7, 3));
		this.appender.release();
		await("every event written").atMost(Duration.ofSeconds(30)).until(() -> !backlog.hasBacklog());
		assertThat(backlog.count()).isEqualTo(Unwritten.NONE);
		assertThat(this.appender.written()).hasSize(7);
	}

	@Test
	void aContextThatIsNotAllAsyncHasNoRingBuffer() {
		start(new LoggerContext("shutdown-sync-" + System.nanoTime()), false);
		assertThat(RingBufferBacklog.of(this.context)).isNull();
	}

	@Test
	void theLastLineGoesPastTheQueueToTheRootLoggersAppenders() {
		startAllAsync(false);
		new Log4jLastLine(this.context).write("the line", true);
		new Log4jLastLine(this.context).write("a milder line", false);
		// Written on this thread, directly: not queued behind what is stuck.
		assertThat(this.appender.written()).hasSize(2);
		LogEvent severe = this.appender.written().get(0);
		assertThat(severe.getMessage().getFormattedMessage()).isEqualTo("the line");
		assertThat(severe.getLevel()).isEqualTo(Level.ERROR);
		assertThat(severe.getLoggerName()).isEqualTo(LastLineWriter.LOGGER_NAME);
		assertThat(severe.getThreadName()).isEqualTo(Thread.currentThread().getName());
		assertThat(this.appender.written().get(1).getLevel()).isEqualTo(Level.WARN);
	}

}
