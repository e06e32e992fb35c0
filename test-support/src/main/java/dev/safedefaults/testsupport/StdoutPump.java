package dev.safedefaults.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * An application process's stdout as a log shipper reads it: copied to a file, no faster
 * than a given rate if one is set, and not at all while stalled (once the pipe's buffer
 * is full, every write of the application to stdout blocks).
 * <p>
 * Stop such a process with {@code process.toHandle().destroy()}, not
 * {@link Process#destroy()}: the latter closes this side of the pipe right after the
 * signal, and the application's writes then fail at once, as if the log were written.
 */
public final class StdoutPump implements Runnable {

	private final InputStream in;

	private final Path file;

	private final long bytesPerSecond;

	private final Object lock = new Object();

	private volatile boolean stalled;

	private Thread thread;

	private StdoutPump(InputStream in, Path file, long bytesPerSecond) {
		this.in = in;
		this.file = file;
		this.bytesPerSecond = bytesPerSecond;
	}

	/**
	 * Starts copying a process's stdout to a file.
	 * @param process the process, its stdout a pipe
	 * ({@link ProcessBuilder.Redirect#PIPE})
	 * @param file where what is read goes
	 * @param bytesPerSecond how fast stdout is read; 0 for as fast as it comes
	 * @return the running pump
	 */
	public static StdoutPump start(Process process, Path file, long bytesPerSecond) {
		if (bytesPerSecond < 0) {
			throw new IllegalArgumentException("bytesPerSecond must be 0 (unpaced) or positive: " + bytesPerSecond);
		}
		StdoutPump pump = new StdoutPump(process.getInputStream(), file, bytesPerSecond);
		pump.thread = new Thread(pump, "stdout-pump-" + process.pid());
		pump.thread.setDaemon(true);
		pump.thread.start();
		return pump;
	}

	/**
	 * The file stdout is copied to.
	 * @return the file
	 */
	public Path file() {
		return this.file;
	}

	/** Stops reading: the reader has stalled. */
	public void stall() {
		this.stalled = true;
	}

	/** Reads again after {@link #stall()}, at the pump's pace if it has one. */
	public void resume() {
		synchronized (this.lock) {
			this.stalled = false;
			this.lock.notifyAll();
		}
	}

	/**
	 * Waits until the pump has read the end of stdout (the process has exited): what was
	 * still in the pipe then reaches the file.
	 * @param limit how long to wait at most
	 */
	public void awaitEnd(Duration limit) {
		try {
			this.thread.join(limit.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void run() {
		// Small reads when paced, so the pace holds within a few milliseconds.
		byte[] buffer = new byte[(this.bytesPerSecond > 0)
				? (int) Math.max(1, Math.min(8192, this.bytesPerSecond / 100)) : 8192];
		long started = System.nanoTime();
		long total = 0;
		try (OutputStream out = Files.newOutputStream(this.file)) {
			int read;
			while ((read = this.in.read(buffer)) >= 0) {
				out.write(buffer, 0, read);
				out.flush();
				total += read;
				if (this.bytesPerSecond > 0) {
					long due = started + total * 1_000_000_000L / this.bytesPerSecond;
					long ahead = due - System.nanoTime();
					if (ahead > 0) {
						Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
					}
					else if (ahead < -100_000_000L) {
						// Idle time earns at most 100 ms of credit: a reader has no
						// savings.
						started -= ahead + 100_000_000L;
					}
				}
				synchronized (this.lock) {
					while (this.stalled) {
						this.lock.wait();
					}
				}
			}
		}
		catch (IOException | InterruptedException ex) {
			// the process has gone
		}
	}

}
