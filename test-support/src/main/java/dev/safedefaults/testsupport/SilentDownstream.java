package dev.safedefaults.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A downstream that accepts connections and never answers (a hung server, a connection
 * left half-open by a failover or a firewall): it reads nothing and writes nothing, and
 * counts the connections it accepted. Its accept loop runs on a daemon thread; closing it
 * closes every connection it accepted.
 */
public final class SilentDownstream implements AutoCloseable {

	private final ServerSocket socket;

	private final List<Socket> accepted = new CopyOnWriteArrayList<>();

	/** How many of the connections accepted first have been answered. */
	private int answered;

	/**
	 * Starts accepting on a free loopback port.
	 * @throws IOException when no port can be bound
	 */
	public SilentDownstream() throws IOException {
		this.socket = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::acceptForEver, "silent-downstream");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	private void acceptForEver() {
		while (!this.socket.isClosed()) {
			try {
				this.accepted.add(this.socket.accept());
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	/**
	 * The URL to give the app as its downstream.
	 * @return {@code http://127.0.0.1:port}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.socket.getLocalPort();
	}

	/**
	 * How many connections it has accepted so far.
	 * @return the count
	 */
	public int accepted() {
		return this.accepted.size();
	}

	/**
	 * Ends the wait of every call it holds, as a downstream that comes back would: a
	 * {@code 503} with {@code Connection: close} on each connection accepted so far, so
	 * that the caller gets an answer on the connection it waits on (closing it instead
	 * can make a client retry elsewhere). Connections accepted later stay silent, until
	 * the next call answers them: one answered already is not written to again.
	 * @throws IOException when an answer cannot be written
	 */
	public synchronized void answerEveryCall() throws IOException {
		int accepted = this.accepted.size();
		for (Socket one : this.accepted.subList(this.answered, accepted)) {
			one.getOutputStream()
				.write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
					.getBytes(StandardCharsets.US_ASCII));
			one.getOutputStream().flush();
		}
		this.answered = accepted;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		for (Socket one : this.accepted) {
			one.close();
		}
	}

}
