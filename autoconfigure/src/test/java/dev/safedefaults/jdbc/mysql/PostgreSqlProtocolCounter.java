package dev.safedefaults.jdbc.mysql;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy in front of a PostgreSQL server that reads what clients send through it in
 * the frontend/backend protocol (version 3) and counts it: the round trips a client asks
 * for ({@code Sync} after an extended-protocol batch, or a simple {@code Query}), the
 * statements it executes ({@code Execute}, {@code Query}) and the SQL texts it sends
 * ({@code Parse} and {@code Query} messages; a statement pgjdbc has prepared on the
 * server is not parsed again), so a test sees on the wire what a driver sends, without
 * asking the server (whose counters are shared with every other client of the machine's
 * service). Bytes are forwarded unchanged.
 */
final class PostgreSqlProtocolCounter implements AutoCloseable {

	/** SSLRequest and GSSENCRequest codes: untyped messages before the startup one. */
	private static final int SSL_REQUEST = 80877103;

	private static final int GSSENC_REQUEST = 80877104;

	private final ServerSocket listener;

	private final String serverHost;

	private final int serverPort;

	private final AtomicLong roundTrips = new AtomicLong();

	private final AtomicLong executions = new AtomicLong();

	private final List<String> statements = new CopyOnWriteArrayList<>();

	private final List<String> messages = new CopyOnWriteArrayList<>();

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	PostgreSqlProtocolCounter(String serverHost, int serverPort) throws IOException {
		this.serverHost = serverHost;
		this.serverPort = serverPort;
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "pg-protocol-counter");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/** The port clients connect to instead of the server's. */
	int port() {
		return this.listener.getLocalPort();
	}

	/** Round trips asked for so far: {@code Sync} and {@code Query} messages. */
	long roundTrips() {
		return this.roundTrips.get();
	}

	/**
	 * Statements executed so far: {@code Execute} and {@code Query} messages (a
	 * {@code BEGIN} or {@code COMMIT} counts, whether parsed again or not).
	 */
	long executions() {
		return this.executions.get();
	}

	/** The SQL texts sent so far, in order ({@code Parse} and {@code Query}). */
	List<String> statements() {
		return List.copyOf(this.statements);
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				Socket server = new Socket(this.serverHost, this.serverPort);
				// Each message is forwarded in one write, at once: no wait for a delayed
				// acknowledgement between the pieces of one message.
				client.setTcpNoDelay(true);
				server.setTcpNoDelay(true);
				this.sockets.add(client);
				this.sockets.add(server);
				start(() -> readClient(client.getInputStream(), server.getOutputStream()));
				start(() -> copyServer(server.getInputStream(), client.getOutputStream()));
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private static void start(IoTask task) {
		Thread thread = new Thread(() -> {
			try {
				task.run();
			}
			catch (IOException ex) {
				// the connection ended
			}
		}, "pg-protocol-counter-pump");
		thread.setDaemon(true);
		thread.start();
	}

	@FunctionalInterface
	private interface IoTask {

		void run() throws IOException;

	}

	private void copyServer(InputStream in, OutputStream out) throws IOException {
		byte[] buffer = new byte[8192];
		int read;
		while ((read = in.read(buffer)) >= 0) {
			out.write(buffer, 0, read);
			out.flush();
		}
		out.close();
	}

	private void readClient(InputStream rawIn, OutputStream out) throws IOException {
		DataInputStream in = new DataInputStream(rawIn);
		try {
			int code;
			do {
				// Untyped: length, then the protocol version or a request code.
				int length = in.readInt();
				byte[] body = new byte[length - 4];
				in.readFully(body);
				code = ((body[0] & 0xff) << 24) | ((body[1] & 0xff) << 16) | ((body[2] & 0xff) << 8) | (body[3] & 0xff);
				forward(out, -1, length, body);
			}
			while (code == SSL_REQUEST || code == GSSENC_REQUEST);
			while (true) {
				int type = in.read();
				if (type < 0) {
					break;
				}
				int length = in.readInt();
				byte[] body = new byte[length - 4];
				in.readFully(body);
				count((char) type, body);
				forward(out, type, length, body);
			}
		}
		catch (EOFException ex) {
			// the client hung up
		}
		out.close();
	}

	/** Every message's type so far, with its SQL for {@code Parse} and {@code Query}. */
	List<String> messages() {
		return List.copyOf(this.messages);
	}

	private void count(char type, byte[] body) {
		this.messages.add((type == 'P') ? "P:" + cString(body, indexOfZero(body, 0) + 1)
				: (type == 'Q') ? "Q:" + cString(body, 0) : String.valueOf(type));
		switch (type) {
			case 'S' -> this.roundTrips.incrementAndGet();
			case 'E' -> this.executions.incrementAndGet();
			case 'Q' -> {
				this.roundTrips.incrementAndGet();
				this.executions.incrementAndGet();
				this.statements.add(cString(body, 0));
			}
			case 'P' -> {
				int nameEnd = indexOfZero(body, 0);
				this.statements.add(cString(body, nameEnd + 1));
			}
			default -> {
			}
		}
	}

	private static String cString(byte[] body, int start) {
		return new String(body, start, indexOfZero(body, start) - start, StandardCharsets.UTF_8);
	}

	private static int indexOfZero(byte[] body, int start) {
		int end = start;
		while (end < body.length && body[end] != 0) {
			end++;
		}
		return end;
	}

	/** One message in one write: its type byte (none when negative), length and body. */
	private static void forward(OutputStream out, int type, int length, byte[] body) throws IOException {
		ByteBuffer message = ByteBuffer.allocate(((type < 0) ? 0 : 1) + 4 + body.length);
		if (type >= 0) {
			message.put((byte) type);
		}
		message.putInt(length).put(body);
		out.write(message.array());
		out.flush();
	}

	@Override
	public void close() throws IOException {
		this.listener.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

}
