package dev.safedefaults.logging.shutdown;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.jspecify.annotations.Nullable;

/**
 * Writes the starter's last line at a stop without ever waiting longer than a grace
 * period: to the log's own output (the root logger's appenders, called directly, since
 * the async queue is what is stuck), to stderr, and, when either of those does not return
 * in time, to a file under {@code java.io.tmpdir}. Each write runs on a daemon thread, so
 * a blocked pipe keeps that thread, never the JVM.
 */
final class LastLineWriter {

	static final String LOGGER_NAME = "dev.safedefaults.logging.shutdown";

	private final LoggerContext context;

	private final Supplier<PrintStream> stderr;

	private final Path directory;

	private final Duration grace;

	LastLineWriter(LoggerContext context, Supplier<PrintStream> stderr, Path directory, Duration grace) {
		this.context = context;
		this.stderr = stderr;
		this.directory = directory;
		this.grace = grace;
	}

	static LastLineWriter forJvm(LoggerContext context, Duration grace) {
		return new LastLineWriter(context, () -> System.err, Path.of(System.getProperty("java.io.tmpdir")), grace);
	}

	/**
	 * Writes the line everywhere it can within the grace period.
	 * @param line the line
	 * @param level its level in the log
	 * @return the file the line went to, or {@code null} when log and stderr both took it
	 */
	@Nullable Path write(String line, Level level) {
		CountDownLatch log = start("safe-defaults-last-line-log", () -> writeToLog(line, level));
		CountDownLatch err = start("safe-defaults-last-line-stderr", () -> {
			PrintStream stream = this.stderr.get();
			stream.println(line);
			stream.flush();
		});
		long deadline = System.nanoTime() + this.grace.toNanos();
		boolean logWritten = await(log, deadline);
		boolean errWritten = await(err, deadline);
		return (logWritten && errWritten) ? null : writeToFile(line);
	}

	private void writeToLog(String line, Level level) {
		LogEvent event = Log4jLogEvent.newBuilder()
			.setLoggerName(LOGGER_NAME)
			.setLoggerFqcn(LastLineWriter.class.getName())
			.setLevel(level)
			.setMessage(new SimpleMessage(line))
			.setThreadName(Thread.currentThread().getName())
			.setTimeMillis(System.currentTimeMillis())
			.build();
		for (Appender appender : this.context.getConfiguration().getRootLogger().getAppenders().values()) {
			if (appender.isStarted()) {
				appender.append(event);
			}
		}
	}

	private @Nullable Path writeToFile(String line) {
		Path file = this.directory.resolve("safe-defaults-shutdown-" + ProcessHandle.current().pid() + ".log");
		try {
			Files.writeString(file, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
			return file;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	private static CountDownLatch start(String name, Runnable write) {
		CountDownLatch done = new CountDownLatch(1);
		Thread thread = new Thread(() -> {
			try {
				write.run();
				done.countDown();
			}
			catch (RuntimeException | Error ex) {
				// not written: the latch stays closed and the file takes the line
			}
		}, name);
		thread.setDaemon(true);
		thread.start();
		return done;
	}

	private static boolean await(CountDownLatch latch, long deadline) {
		try {
			return latch.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
