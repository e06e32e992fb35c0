package dev.safedefaults.jdbc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A database service the project's machines run (never a mock) that a test class needs:
 * on CI ({@value #CI_VARIABLE}{@code =true}, which {@code .ci/run} sets) or with its own
 * {@code -D<name>.required=true} a missing service is a failure; elsewhere the class is
 * skipped, and the skip report prints a {@code SKIPPED:} line with the reason, so a
 * developer's machine with only a JDK still runs the README's test command.
 */
public final class MachineService {

	/** The environment variable {@code .ci/run} sets: on CI nothing may be skipped. */
	public static final String CI_VARIABLE = "SAFE_DEFAULTS_CI";

	/**
	 * The PostgreSQL service's database {@code test} (user {@code postgres}, no
	 * password).
	 */
	public static final String POSTGRESQL_URL = "jdbc:postgresql://127.0.0.1:5432/test";

	private MachineService() {
	}

	/**
	 * Fails or skips the calling test class when the machine's PostgreSQL is not
	 * reachable.
	 */
	public static void requirePostgreSql() {
		try (Connection connection = DriverManager.getConnection(POSTGRESQL_URL, "postgres", "")) {
			// reachable
		}
		catch (SQLException ex) {
			missing("postgresql.required",
					"no PostgreSQL at 127.0.0.1:5432 (user postgres, database test, "
							+ "trust authentication; CI machines run 15): " + ex.getClass().getSimpleName()
							+ " (start it with 'pg_ctlcluster <version> main start', or install it with "
							+ "'apt-get install postgresql')");
		}
	}

	/**
	 * Whether a service listens at a host and port (within half a second).
	 * @param host the host
	 * @param port the port
	 * @return {@code true} when a connection is accepted
	 */
	public static boolean listens(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Fails or skips the calling test class when the service is missing.
	 * @param requiredProperty the system property that makes the service required outside
	 * CI
	 * @param missing what is missing and how to start it
	 */
	public static void missing(String requiredProperty, String missing) {
		if (Boolean.getBoolean(requiredProperty) || Boolean.parseBoolean(System.getenv(CI_VARIABLE))) {
			fail(missing + "; required because " + requiredProperty + "=true or " + CI_VARIABLE + "=true");
		}
		abort(missing + "; skipped here, a failure on CI (" + requiredProperty + "=true or " + CI_VARIABLE + "=true)");
	}

}
