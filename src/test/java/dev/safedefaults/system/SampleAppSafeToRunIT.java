package dev.safedefaults.system;

import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The packaged sample app is safe to run on a shared machine (issue 25): its embedded
 * database listens on the loopback address only and refuses a login without the password
 * the app generated, no anonymous endpoint gives the database's port, the database stops
 * when the app is killed, and request input reaches the log escaped.
 */
@ExtendWith(SharedSampleApp.class)
class SampleAppSafeToRunIT {

	private static SampleAppProcess app;

	@BeforeAll
	static void start(SampleAppProcess shared) {
		app = shared;
		assertThat(app.isAlive()).as("sample app is running; log:\n%s", app.log()).isTrue();
	}

	@Test
	void theDatabaseListensOnTheLoopbackAddressOnly() throws IOException {
		int port = databasePort(app);
		List<String> listening = listeningAddresses(port);
		assertThat(listening).as("sockets listening on the database's port %d", port).isNotEmpty();
		// 127.0.0.1 as /proc/net/tcp writes it; 0.0.0.0 or :: would accept any interface.
		assertThat(listening).as("sockets listening on the database's port %d", port).containsOnly("0100007F");
	}

	@Test
	void theDatabaseRefusesALoginWithoutThePassword() {
		// The app itself logs in: it answers from the database.
		assertThat(app.get("/api/orders/1").statusCode()).isEqualTo(200);
		String url = "jdbc:mariadb://127.0.0.1:" + databasePort(app) + "/sample";
		for (String user : List.of("root", "sample", "")) {
			assertThatExceptionOfType(SQLException.class).as("login as '%s' without password", user)
				.isThrownBy(() -> DriverManager.getConnection(url, user, "").close())
				.withMessageContaining("Access denied");
		}
		assertThatExceptionOfType(SQLException.class).as("login as 'sample' with a guessed password")
			.isThrownBy(() -> DriverManager.getConnection(url, "sample", "sample").close())
			.withMessageContaining("Access denied");
	}

	/**
	 * Info, health and metrics. The starter's report ({@code /actuator/safedefaults} and
	 * the health group) quotes the pool's URL, port included, to whoever the sample opens
	 * its details to: everyone, by its demo property
	 * {@code safe-defaults.health.show-details=always}; without it the report is withheld
	 * (see {@link SampleAppSecretsIT}).
	 */
	@Test
	void noAnonymousEndpointGivesTheDatabasesPort() {
		String port = Integer.toString(databasePort(app));
		for (String path : List.of("/actuator/info", "/actuator/health", "/actuator/metrics",
				"/actuator/metrics/sample.db.statements", "/actuator/metrics/hikaricp.connections")) {
			HttpResponse<String> response = app.get(path);
			assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
			assertThat(response.body()).as("GET %s", path).doesNotContain(port);
		}
	}

	@Test
	void aParameterWithCrLfIsLoggedOnOneLine() {
		String marker = "FORGED-" + System.nanoTime();
		String channel = "web\r\n2026-01-01T00:00:00.000Z ERROR 1 --- [main] " + marker + "\u0007";
		assertThat(app.get("/api/orders/1?channel=" + URLEncoder.encode(channel, StandardCharsets.UTF_8)).statusCode())
			.isEqualTo(200);
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> app.log().contains(marker));
		List<String> lines = app.log().lines().filter((line) -> line.contains(marker)).toList();
		assertThat(lines).singleElement()
			.asString()
			.contains("Loading order 1 for channel web\\r\\n2026-01-01T00:00:00.000Z ERROR 1 --- [main] " + marker
					+ "\\u0007");
	}

	/**
	 * In a temporary directory of its own, like the next test: no sample app that another
	 * test class starts meanwhile sweeps this one's database in the watchdog's stead.
	 */
	@Test
	void aKilledAppsDatabaseStopsWithIt(@TempDir Path temporary) throws Exception {
		try (SampleAppProcess killed = SampleAppProcess.start("safe-to-run-killed", temporaryDirectory(temporary),
				List.of())) {
			assertThat(killed.isAlive()).as("log:\n%s", killed.log()).isTrue();
			ProcessHandle server = killed.databaseServer();
			List<Path> directories = directories(server);
			assertThat(directories).allSatisfy((directory) -> assertThat(directory).isDirectory());
			// The server's directories lie in one of the app's own, which the watchdog
			// deletes.
			Path serverDirectory = directories.get(0).getParent();
			killed.kill();
			Awaitility.await()
				.atMost(Duration.ofSeconds(60))
				.untilAsserted(
						() -> assertThat(server.isAlive()).as("the database server of the killed app").isFalse());
			Awaitility.await()
				.atMost(Duration.ofSeconds(60))
				.untilAsserted(
						() -> assertThat(directories).allSatisfy((directory) -> assertThat(directory).doesNotExist()));
			Awaitility.await()
				.atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(serverDirectory).doesNotExist());
		}
	}

	/**
	 * The killed app and the next one share a temporary directory of their own: with
	 * system test classes running side by side, a sample app that another class starts in
	 * between would otherwise be the start that removes the database.
	 */
	@Test
	void theNextStartRemovesADatabaseLeftByAKilledAppAndItsWatchdog(@TempDir Path temporary) throws Exception {
		ProcessHandle orphan;
		List<Path> directories;
		try (SampleAppProcess killed = SampleAppProcess.start("safe-to-run-orphan", temporaryDirectory(temporary),
				List.of())) {
			assertThat(killed.isAlive()).as("log:\n%s", killed.log()).isTrue();
			orphan = killed.databaseServer();
			directories = directories(orphan);
			// The watchdog dies first (as when the whole process tree is killed but the
			// server).
			List<ProcessHandle> watchdogs = killed.handle()
				.children()
				.filter((child) -> !child.equals(orphan))
				.filter((child) -> child.info()
					.arguments()
					.map(List::of)
					.orElse(List.of())
					.contains("sample-db-watchdog"))
				.toList();
			assertThat(watchdogs).as("the database's watchdog").hasSize(1);
			watchdogs.get(0).destroyForcibly();
			watchdogs.get(0).onExit().get();
			killed.kill();
		}
		assertThat(orphan.isAlive()).as("the server outlived its app and watchdog").isTrue();
		try (SampleAppProcess next = SampleAppProcess.start("safe-to-run-next", temporaryDirectory(temporary),
				List.of())) {
			assertThat(next.isAlive()).as("log:\n%s", next.log()).isTrue();
			assertThat(orphan.isAlive()).as("the killed app's database server after the next start").isFalse();
			assertThat(directories).allSatisfy((directory) -> assertThat(directory).doesNotExist());
			assertThat(next.log()).contains("Removed an embedded MariaDB left behind by a killed process");
		}
	}

	/** JVM arguments that give the app its own temporary directory. */
	private static List<String> temporaryDirectory(Path temporary) {
		return List.of("-Djava.io.tmpdir=" + temporary.toAbsolutePath());
	}

	private static int databasePort(SampleAppProcess app) {
		return Integer.parseInt(argument(app.databaseServer(), "--port="));
	}

	/** The server's base and data directories, from its command line. */
	private static List<Path> directories(ProcessHandle server) {
		return List.of(Path.of(argument(server, "--basedir=")), Path.of(argument(server, "--datadir=")));
	}

	private static String argument(ProcessHandle process, String prefix) {
		return process.info()
			.arguments()
			.map(List::of)
			.orElse(List.of())
			.stream()
			.filter((argument) -> argument.startsWith(prefix))
			.map((argument) -> argument.substring(prefix.length()))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No " + prefix + " in " + process.info()));
	}

	/**
	 * The local addresses of the sockets listening on a TCP port, as the kernel lists
	 * them ({@code /proc/net/tcp} and {@code tcp6}: hex, state {@code 0A} is LISTEN).
	 */
	private static List<String> listeningAddresses(int port) throws IOException {
		String hexPort = String.format(Locale.ROOT, "%04X", port);
		List<String> addresses = new ArrayList<>();
		for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
			for (String line : Files.readAllLines(Path.of(table))) {
				String[] fields = line.trim().split("\\s+");
				if (fields.length > 3 && fields[3].equals("0A") && fields[1].endsWith(":" + hexPort)) {
					addresses.add(fields[1].substring(0, fields[1].indexOf(':')));
				}
			}
		}
		return addresses;
	}

}
