package dev.safedefaults.support;

import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The one table of what a library's frames mean on a stack: each row is a class-name
 * prefix (and, where only some of its methods wait, those methods), the library as a
 * reader knows it, and what a frame of it means. Every reading of a stack comes from it:
 * the stuck-request watch takes the first frame, top first, of a row with a wait as what
 * a request waits on; a frame of any row is not the application's, so the first frame of
 * none is the application's code, for every feature that names a caller
 * ({@link #isApplications(StackTraceElement)}). Rows are matched in order, so a narrow
 * row comes before the broad one it narrows
 * ({@code com.zaxxer.hikari.pool.HikariPool.getConnection} before {@code com.zaxxer.}).
 * <p>
 * The rows of the JDK's own waits also say whether {@code Thread.interrupt()} ends them
 * ({@link Interrupt}, {@link #interruptEnds}): that is decided by where the thread is
 * parked, not by the library above it (the JDK {@code HttpClient}'s {@code send} waits in
 * {@code CompletableFuture.get}, Hikari's {@code getConnection} in
 * {@code SynchronousQueue.poll}, a JDBC driver or Apache HttpClient 5 in a socket read).
 */
public final class LibraryFrames {

	/** What a frame of a row means for the thread that runs it. */
	public enum Meaning {

		/** A wait for an HTTP client's answer. */
		HTTP_CLIENT,

		/**
		 * A wait for one of an HTTP client's pooled connections: a wait for that client,
		 * said to wait for its pool.
		 */
		HTTP_CLIENT_POOL,

		/** A JDBC driver's read. */
		JDBC_DRIVER,

		/** A wait for a JDBC pool's connection. */
		JDBC_POOL,

		/** A wait for room in an asynchronous logging queue. */
		LOGGING_QUEUE,

		/** A wait to write to {@code System.err} or {@code System.out}. */
		PRINT_STREAM,

		/** {@code Thread.sleep}. */
		SLEEP,

		/** The servlet container writing the response to a client that reads slowly. */
		RESPONSE_WRITE,

		/**
		 * The servlet container reading the request's body from a client that sends
		 * slowly.
		 */
		REQUEST_READ,

		/**
		 * Spring's client (or Feign) on top of an HTTP client library: names the client
		 * an HTTP wait came through, and is no wait by itself.
		 */
		HTTP_CLIENT_API,

		/**
		 * A frame of the JVM, the server, a framework or a library that says nothing of
		 * the wait by itself: only "not the application's".
		 */
		LIBRARY

	}

	/** Whether {@code Thread.interrupt()} ends a wait in a frame of a row. */
	public enum Interrupt {

		/**
		 * Ends it: the wait throws {@code InterruptedException} (or the library's own
		 * failure for it).
		 */
		ENDS,

		/**
		 * Ends it on a virtual thread only (JDK 21 or later): a blocking socket read or
		 * write, which ignores an interrupt on a platform thread; on a virtual thread the
		 * socket is closed and the read fails with {@code SocketException: Closed by
		 * interrupt}.
		 */
		ENDS_ON_VIRTUAL_THREAD,

		/** Never ends it: {@code ReentrantLock.lock()}. */
		NEVER,

		/** The row says nothing: the frame below decides. */
		UNDECLARED

	}

	/**
	 * One row of the table.
	 *
	 * @param prefix the start of the frames' class names (a package ending in a dot, or a
	 * class name, which also covers its nested and generated classes)
	 * @param methods the methods that mean the wait, empty for every method
	 * @param library the library as a reader knows it
	 * @param meaning what a frame of it means
	 * @param interrupt whether an interrupt ends a wait in a frame of it
	 */
	public record Row(String prefix, Set<String> methods, String library, Meaning meaning, Interrupt interrupt) {

		/**
		 * Whether a frame is of this row.
		 * @param frame the frame
		 * @return {@code true} when its class starts with the prefix and its method is
		 * one of the methods (any, when none is listed)
		 */
		public boolean matches(StackTraceElement frame) {
			return matches(frame.getClassName(), frame.getMethodName());
		}

		boolean matches(String className, String methodName) {
			return className.startsWith(this.prefix) && (this.methods.isEmpty() || this.methods.contains(methodName));
		}

	}

	/** HikariCP, whose frames also say a JDBC call runs on a pooled connection. */
	public static final String HIKARI = "HikariCP";

	/** The table, narrow rows first. */
	public static final List<Row> ROWS = List.of(
			// What the JVM itself waits in, and whether an interrupt ends it (read in the
			// JDK's sources, 17 to 25, and proven on real waits by the deadline's tests).
			new Row("java.lang.Thread", Set.of("sleep", "sleep0", "sleepNanos", "sleepNanos0"), "Thread.sleep",
					Meaning.SLEEP, Interrupt.ENDS),
			jdk("java.lang.Object", Set.of("wait", "wait0"), Interrupt.ENDS),
			jdk("java.util.concurrent.CompletableFuture", Set.of("get"), Interrupt.ENDS),
			jdk("java.util.concurrent.FutureTask", Set.of("get"), Interrupt.ENDS),
			jdk("java.util.concurrent.SynchronousQueue", Set.of("poll", "take"), Interrupt.ENDS),
			jdk("java.util.concurrent.locks.AbstractQueuedSynchronizer",
					Set.of("acquireInterruptibly", "acquireSharedInterruptibly", "tryAcquireNanos",
							"tryAcquireSharedNanos", "await", "awaitNanos", "awaitUntil"),
					Interrupt.ENDS),
			jdk("java.util.concurrent.locks.ReentrantLock", Set.of("lock"), Interrupt.NEVER),
			jdk("sun.nio.ch.NioSocketImpl", Set.of("park", "timedRead", "timedAccept"),
					Interrupt.ENDS_ON_VIRTUAL_THREAD),
			row("java.io.PrintStream", "System.err or System.out", Meaning.PRINT_STREAM),
			row("java.lang.Throwable", Set.of("printStackTrace"), "System.err (printStackTrace)", Meaning.PRINT_STREAM),
			// JDBC pools and drivers.
			row("com.zaxxer.hikari.pool.HikariPool", Set.of("getConnection"), HIKARI, Meaning.JDBC_POOL),
			row("com.mysql.cj.", "MySQL Connector/J", Meaning.JDBC_DRIVER),
			row("org.mariadb.jdbc.", "MariaDB Connector/J", Meaning.JDBC_DRIVER),
			row("org.postgresql.", "pgjdbc", Meaning.JDBC_DRIVER),
			row("oracle.jdbc.", "Oracle JDBC", Meaning.JDBC_DRIVER),
			row("oracle.net.", "Oracle JDBC", Meaning.JDBC_DRIVER),
			row("com.microsoft.sqlserver.", "SQL Server JDBC", Meaning.JDBC_DRIVER),
			row("org.h2.", "H2", Meaning.JDBC_DRIVER),
			// HTTP clients, and Spring's request factories on top of them (the JDK
			// HttpClient's caller waits on a future, with no frame of the library).
			row("org.apache.hc.core5.pool.", "Apache HttpClient 5", Meaning.HTTP_CLIENT_POOL),
			row("org.apache.hc.client5.", "Apache HttpClient 5", Meaning.HTTP_CLIENT),
			row("org.apache.hc.core5.", "Apache HttpClient 5", Meaning.HTTP_CLIENT),
			row("org.springframework.http.client.HttpComponentsClientHttp", "Apache HttpClient 5", Meaning.HTTP_CLIENT),
			row("org.apache.http.", "Apache HttpClient 4", Meaning.HTTP_CLIENT),
			row("jdk.internal.net.http.", "JDK HttpClient", Meaning.HTTP_CLIENT),
			row("java.net.http.", "JDK HttpClient", Meaning.HTTP_CLIENT),
			row("org.springframework.http.client.JdkClientHttp", "JDK HttpClient", Meaning.HTTP_CLIENT),
			row("org.eclipse.jetty.client.", "Jetty HttpClient", Meaning.HTTP_CLIENT),
			row("org.springframework.http.client.JettyClientHttp", "Jetty HttpClient", Meaning.HTTP_CLIENT),
			row("reactor.netty.", "Reactor Netty", Meaning.HTTP_CLIENT),
			row("org.springframework.http.client.ReactorClientHttp", "Reactor Netty", Meaning.HTTP_CLIENT),
			row("sun.net.www.protocol.http.", "HttpURLConnection", Meaning.HTTP_CLIENT),
			row("org.springframework.http.client.SimpleClientHttp", "HttpURLConnection", Meaning.HTTP_CLIENT),
			row("org.springframework.http.client.SimpleBufferingClientHttp", "HttpURLConnection", Meaning.HTTP_CLIENT),
			row("okhttp3.", "OkHttp", Meaning.HTTP_CLIENT),
			row("org.springframework.web.client.DefaultRestClient", "RestClient", Meaning.HTTP_CLIENT_API),
			row("org.springframework.web.client.RestTemplate", "RestTemplate", Meaning.HTTP_CLIENT_API),
			row("org.springframework.web.reactive.function.client.", "WebClient", Meaning.HTTP_CLIENT_API),
			row("feign.", "Feign", Meaning.HTTP_CLIENT_API),
			// The servlet container's own blocking write and read (Tomcat's NIO
			// connector,
			// what Boot runs by default): the client on the other end is slow.
			row("org.apache.tomcat.util.net.", Set.of("doWrite", "writeBlocking"), "Tomcat", Meaning.RESPONSE_WRITE),
			row("org.apache.tomcat.util.net.", Set.of("fillReadBuffer", "read"), "Tomcat", Meaning.REQUEST_READ),
			// Jetty 12.1's (Jakarta EE 11 servlets): its blocking write waits in
			// HttpOutput.channelWrite, its blocking read for the body's next chunk,
			// each on a condition the JVM names as a lock.
			row("org.eclipse.jetty.ee11.servlet.HttpOutput", Set.of("channelWrite"), "Jetty", Meaning.RESPONSE_WRITE),
			row("org.eclipse.jetty.ee11.servlet.BlockingContentProducer", Set.of("nextChunk"), "Jetty",
					Meaning.REQUEST_READ),
			// Logging: the queues, then the rest of each library.
			row("com.lmax.disruptor.", "Log4j2's async logging queue", Meaning.LOGGING_QUEUE),
			row("org.apache.logging.log4j.core.async.", "Log4j2's async logging queue", Meaning.LOGGING_QUEUE),
			row("ch.qos.logback.core.AsyncAppenderBase", "a Logback AsyncAppender's queue", Meaning.LOGGING_QUEUE),
			row("org.apache.logging.", "Log4j2", Meaning.LIBRARY), row("ch.qos.logback.", "Logback", Meaning.LIBRARY),
			row("org.slf4j.", "SLF4J", Meaning.LIBRARY),
			// ORMs, mappers and repositories, whose frames sit between the
			// application's and the driver's.
			row("org.hibernate.", "Hibernate", Meaning.LIBRARY), row("org.mybatis.", "MyBatis", Meaning.LIBRARY),
			row("org.apache.ibatis.", "MyBatis", Meaning.LIBRARY), row("org.jooq.", "jOOQ", Meaning.LIBRARY),
			row("org.springframework.data.", "Spring Data", Meaning.LIBRARY),
			// Metrics and tracing around a call.
			row("io.micrometer.", "Micrometer", Meaning.LIBRARY),
			// Proxies: the JDK's dynamic proxies (a MyBatis mapper, a Spring Data
			// repository, an HTTP interface) and Spring's CGLIB classes.
			row("jdk.proxy", "a JDK proxy", Meaning.LIBRARY), row("com.sun.proxy.", "a JDK proxy", Meaning.LIBRARY),
			// The rest of the JVM, the server and the frameworks.
			row("java.", "the JDK", Meaning.LIBRARY), row("javax.", "the JDK", Meaning.LIBRARY),
			row("jdk.", "the JDK", Meaning.LIBRARY), row("sun.", "the JDK", Meaning.LIBRARY),
			row("com.sun.", "the JDK", Meaning.LIBRARY), row("kotlin.", "Kotlin", Meaning.LIBRARY),
			row("jakarta.", "Jakarta EE", Meaning.LIBRARY), row("org.apache.catalina.", "Tomcat", Meaning.LIBRARY),
			row("org.apache.coyote.", "Tomcat", Meaning.LIBRARY), row("org.apache.tomcat.", "Tomcat", Meaning.LIBRARY),
			row("org.eclipse.jetty.", "Jetty", Meaning.LIBRARY), row("org.springframework.", "Spring", Meaning.LIBRARY),
			row("org.apache.", "Apache", Meaning.LIBRARY), row("com.zaxxer.", HIKARI, Meaning.LIBRARY),
			row("reactor.", "Reactor", Meaning.LIBRARY), row("io.netty.", "Netty", Meaning.LIBRARY),
			row("tools.jackson.", "Jackson", Meaning.LIBRARY), row("com.fasterxml.", "Jackson", Meaning.LIBRARY),
			// The starter's own frames on an application's thread: the watch's filter
			// (in its servlet route), and the RestClient feature's count of builds
			// (named by their class names, as this package imports no feature).
			row("dev.safedefaults.stuckrequests.servlet.InFlightRequestsFilter", "safe-defaults", Meaning.LIBRARY),
			row("dev.safedefaults.httpclient.restclient.RestClientBuilds", "safe-defaults", Meaning.LIBRARY),
			row("dev.safedefaults.httpclient.restclient.SharedConvertersRestClientCustomizer", "safe-defaults",
					Meaning.LIBRARY));

	/**
	 * Markers of generated classes inside a class name (Spring's CGLIB proxies of the
	 * application's own beans, and the JDK's proxies of its non-public interfaces, such
	 * as a package-private MyBatis mapper, which the JDK defines in the interface's own
	 * package: {@code com.example.$Proxy68}): such a frame is the proxy's, not the
	 * application's code.
	 */
	private static final List<String> GENERATED = List.of("$$SpringCGLIB$$", "$$EnhancerBySpringCGLIB$$",
			"$$FastClassBySpringCGLIB$$", ".$Proxy");

	private LibraryFrames() {
	}

	/**
	 * The row a frame belongs to.
	 * @param frame the frame
	 * @return its row, or {@code null} when it is the application's
	 */
	public static @Nullable Row of(StackTraceElement frame) {
		return of(frame.getClassName(), frame.getMethodName());
	}

	private static @Nullable Row of(String className, String methodName) {
		for (Row row : ROWS) {
			if (row.matches(className, methodName)) {
				return row;
			}
		}
		return null;
	}

	/**
	 * Whether a frame is the application's own code: of no row, and not a generated proxy
	 * of one of its classes.
	 * @param frame the frame
	 * @return {@code true} for the application's frame
	 */
	public static boolean isApplications(StackTraceElement frame) {
		return isApplications(frame.getClassName(), frame.getMethodName());
	}

	/**
	 * Whether a frame is the application's own code, from its class and method names (a
	 * {@link StackWalker.StackFrame}'s, without building its {@link StackTraceElement}).
	 * @param className the frame's class name
	 * @param methodName the frame's method name
	 * @return {@code true} for the application's frame
	 */
	public static boolean isApplications(String className, String methodName) {
		return of(className, methodName) == null && GENERATED.stream().noneMatch(className::contains);
	}

	/**
	 * Whether an interrupt ends the wait a stack is in: the first row, top frame first,
	 * that says so decides, among the JDK's frames at the top of the stack only (a
	 * library's or the application's frame ends the search, so a wait the table does not
	 * know is never said to end; so is a monitor entry, whose top frame is the code that
	 * enters it).
	 * @param frames the stack, top frame first
	 * @param virtual whether the thread is virtual
	 * @return {@code true} when an interrupt ends the wait
	 */
	public static boolean interruptEnds(StackTraceElement[] frames, boolean virtual) {
		for (StackTraceElement frame : frames) {
			Row row = of(frame);
			String type = frame.getClassName();
			if (row == null || !(type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun."))) {
				return false;
			}
			if (row.interrupt() != Interrupt.UNDECLARED) {
				return row.interrupt() == Interrupt.ENDS
						|| (row.interrupt() == Interrupt.ENDS_ON_VIRTUAL_THREAD && virtual);
			}
		}
		return false;
	}

	/** A wait of the JDK's: for the kind of wait only "not the application's". */
	private static Row jdk(String prefix, Set<String> methods, Interrupt interrupt) {
		return new Row(prefix, methods, "the JDK", Meaning.LIBRARY, interrupt);
	}

	private static Row row(String prefix, String library, Meaning meaning) {
		return new Row(prefix, Set.of(), library, meaning, Interrupt.UNDECLARED);
	}

	private static Row row(String prefix, Set<String> methods, String library, Meaning meaning) {
		return new Row(prefix, methods, library, meaning, Interrupt.UNDECLARED);
	}

}
