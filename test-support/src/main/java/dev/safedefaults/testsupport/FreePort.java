package dev.safedefaults.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * Starts an application process on a free TCP port, and again on another one when it lost
 * the port: between the pick and the application's bind, the kernel may hand a freshly
 * closed port to any other socket (the application's own embedded database or downstream
 * server included), and Spring Boot then stops with "Port N was already in use".
 */
public final class FreePort {

	/** How many ports are tried before the last start is returned as it is. */
	public static final int ATTEMPTS = 3;

	private FreePort() {
	}

	/**
	 * Starts an application on a free port, up to {@value #ATTEMPTS} times.
	 * @param <A> the started application
	 * @param startOn starts the application on a port and returns once it answers or has
	 * exited
	 * @param lostItsPort whether a started application exited because its port was taken
	 * @return the first start that did not lose its port, or the last one
	 */
	public static <A extends AutoCloseable> A start(IntFunction<A> startOn, Predicate<A> lostItsPort) {
		for (int attempt = 1;; attempt++) {
			A app = startOn.apply(pick());
			if (attempt == ATTEMPTS || !lostItsPort.test(app)) {
				return app;
			}
			try {
				app.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException("Could not stop an application that lost its port", ex);
			}
		}
	}

	/**
	 * Whether an application's output says that Spring Boot's web server found its port
	 * in use.
	 * @param port the port it was started on
	 * @param output what the application wrote
	 * @return {@code true} when it lost that port
	 */
	public static boolean lostInOutput(int port, String output) {
		return output.contains("Port " + port + " was already in use");
	}

	/**
	 * A port nothing listens on at the moment of the call.
	 * @return the port
	 */
	public static int pick() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
