package dev.safedefaults.jdbc.mysql;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a database that can be made to stop answering (issue 34): after
 * {@link #freeze()}, what the clients send still reaches the server, but nothing the
 * server sends reaches a client any more, and a new connection is accepted and never
 * answered. That is what a client sees of a database that hung, or of a path to it that
 * went away without closing its connections (a failover, a firewall that forgets them): a
 * query sent, no answer, no reset. Closing the proxy closes every connection, which
 * releases whoever still waits.
 */
final class FreezingTcpProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final int serverPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private volatile boolean frozen;

	/**
	 * Starts a proxy on a free loopback port.
	 * @param serverPort the database's port on the loopback address
	 * @throws IOException if no port can be opened
	 */
	FreezingTcpProxy(int serverPort) throws IOException {
		this.serverPort = serverPort;
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::acceptEachConnection, "freezing-proxy");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * The port clients connect to.
	 * @return the port
	 */
	int port() {
		return this.listener.getLocalPort();
	}

	/** From now on the server's answers reach no client; new connections hang. */
	void freeze() {
		this.frozen = true;
	}

	private void acceptEachConnection() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				this.sockets.add(client);
				if (this.frozen) {
					// Accepted, never answered: not even the server's greeting.
					continue;
				}
				Socket server = new Socket(InetAddress.getLoopbackAddress(), this.serverPort);
				this.sockets.add(server);
				pipe(client, server, false);
				pipe(server, client, true);
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void pipe(Socket fromSocket, Socket toSocket, boolean fromServer) throws IOException {
		InputStream from = fromSocket.getInputStream();
		OutputStream to = toSocket.getOutputStream();
		Thread pipe = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try {
				for (int read = from.read(buffer); read >= 0; read = from.read(buffer)) {
					if (fromServer && this.frozen) {
						// The answer is lost on the way, and so is every later one.
						continue;
					}
					to.write(buffer, 0, read);
					to.flush();
				}
			}
			catch (IOException ex) {
				// One side closed.
			}
			finally {
				if (!this.frozen) {
					// A frozen database closes nothing: only close() does.
					close(fromSocket);
					close(toSocket);
				}
			}
		}, "freezing-proxy-pipe");
		pipe.setDaemon(true);
		pipe.start();
	}

	private static void close(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
	}

	@Override
	public void close() throws IOException {
		this.listener.close();
		this.sockets.forEach(FreezingTcpProxy::close);
	}

}
