package dev.safedefaults.httpclient.timeouts;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A downstream that accepts connections and never answers (a hung server, a connection
 * left half-open): it reads nothing and writes nothing. Closed at the end of the test.
 */
final class SilentServer implements AutoCloseable {

	private final ServerSocket socket;

	private final List<Socket> accepted = new CopyOnWriteArrayList<>();

	private final Thread acceptor;

	SilentServer() throws IOException {
		this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.acceptor = new Thread(() -> {
			while (!this.socket.isClosed()) {
				try {
					this.accepted.add(this.socket.accept());
				}
				catch (IOException ex) {
					return;
				}
			}
		}, "silent-server");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.socket.getLocalPort();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		for (Socket one : this.accepted) {
			one.close();
		}
	}

}
