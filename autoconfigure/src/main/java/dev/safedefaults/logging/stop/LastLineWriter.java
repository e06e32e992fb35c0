package dev.safedefaults.logging.stop;

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

import dev.safedefaults.StarterThreads;
import org.jspecify.annotations.Nullable;

/**
 * Writes the starter's last line at a stop without ever waiting longer than a grace
 * period: to the log's own output (the logging system's root appenders, called directly,
 * since the async queue is what is stuck: a {@link LogOutput} per logging system), to
 * stderr, and, when either of those does not return in time, to a file under
 * {@code java.io.tmpdir}. Each write runs on a daemon thread, so a blocked pipe keeps
 * that thread, never the JVM.
 */
public final class LastLineWriter {

	/**
	 * The logger the last line is written as: the name it has always had, which operators
	 * may filter on.
	 */
	public static final String LOGGER_NAME = "dev.safedefaults.logging.shutdown";

	private final LogOutput log;

	private final Supplier<PrintStream> stderr;

	private final Path directory;

	private final Duration grace;

	/**
	 * A writer to the given outputs.
	 * @param log the log's own output
	 * @param stderr standard error
	 * @param directory where the file goes when either output does not take the line in
	 * time
	 * @param grace how long each output may take
	 */
	public LastLineWriter(LogOutput log, Supplier<PrintStream> stderr, Path directory, Duration grace) {
		this.log = log;
		this.stderr = stderr;
		this.directory = directory;
		this.grace = grace;
	}

	/**
	 * A writer to the log, {@code System.err} and, failing those, {@code java.io.tmpdir}.
	 * @param log the log's own output
	 * @param grace how long each output may take
	 * @return the writer
	 */
	public static LastLineWriter forJvm(LogOutput log, Duration grace) {
		return new LastLineWriter(log, () -> System.err, Path.of(System.getProperty("java.io.tmpdir")), grace);
	}

	/**
	 * Writes the line everywhere it can within the grace period.
	 * @param line the line
	 * @param severe whether it is an ERROR in the log (WARN otherwise): some WARN or
	 * ERROR events were not written
	 * @return the file the line went to, or {@code null} when log and stderr both took it
	 */
	public @Nullable Path write(String line, boolean severe) {
		CountDownLatch log = start("safe-defaults-last-line-log", () -> this.log.write(line, severe));
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
		Thread thread = StarterThreads.newThread(() -> {
			try {
				write.run();
				done.countDown();
			}
			catch (RuntimeException | Error ex) {
				// not written: the latch stays closed and the file takes the line
			}
		}, name);
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

	/**
	 * The log's own output, written to directly (the queue is what is stuck).
	 */
	public interface LogOutput {

		/**
		 * Writes a line to the root logger's appenders, as an event of the logger
		 * {@value LastLineWriter#LOGGER_NAME}.
		 * @param line the line
		 * @param severe ERROR when true, WARN otherwise
		 */
		void write(String line, boolean severe);

	}

}
