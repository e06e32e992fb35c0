package dev.safedefaults.sample.db;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Stops the embedded server and deletes its directory when the application dies however
 * it dies, {@code SIGKILL} included: a small shell process started by the application
 * that waits on a pipe only the application writes to. When the application's JVM ends,
 * the kernel closes that pipe; the watchdog then stops the server (if its command line
 * still names the directory, so a reused PID is never signalled) and deletes the
 * directory. The application disarms it once it has stopped the server itself. It ignores
 * SIGINT and SIGHUP, which a terminal sends to the whole process group: the application's
 * own stop handles those.
 */
final class ServerWatchdog {

	private static final String DISARM = "stopped";

	// $1: the server's PID, $2: its directory. Zombies have an empty cmdline: the loop
	// ends
	// even when nobody reaps the server.
	private static final String SCRIPT = """
			trap '' INT HUP
			read -r line
			[ "$line" = %s ] && exit 0
			i=0
			while grep -q -F -- "$2/" "/proc/$1/cmdline" 2>/dev/null; do
			  [ "$i" -eq 0 ] && kill -TERM "$1" 2>/dev/null
			  [ "$i" -eq 300 ] && kill -KILL "$1" 2>/dev/null
			  i=$((i + 1))
			  sleep 0.2
			done
			rm -rf -- "$2"
			""".formatted(DISARM);

	private final Process process;

	private ServerWatchdog(Process process) {
		this.process = process;
	}

	/**
	 * Starts a watchdog for a server.
	 * @param server the server process
	 * @param directory the server's directory, deleted once it has stopped
	 * @return the watchdog
	 */
	static ServerWatchdog start(ProcessHandle server, Path directory) throws IOException {
		ProcessBuilder builder = new ProcessBuilder("sh", "-c", SCRIPT, "sample-db-watchdog",
				Long.toString(server.pid()), directory.toString());
		builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
		return new ServerWatchdog(builder.start());
	}

	/**
	 * The application has stopped the server: the watchdog ends without touching
	 * anything.
	 */
	void disarm() {
		try (OutputStream pipe = this.process.getOutputStream()) {
			pipe.write((DISARM + "\n").getBytes(StandardCharsets.US_ASCII));
		}
		catch (IOException ex) {
			// The watchdog has gone already: nothing left to disarm.
		}
	}

}
