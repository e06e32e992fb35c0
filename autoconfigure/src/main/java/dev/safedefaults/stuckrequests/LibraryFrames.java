package dev.safedefaults.stuckrequests;

import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The one table of what a library's frames mean on a stuck request's stack: each row is a
 * class-name prefix (and, where only some of its methods wait, those methods), the
 * library as a reader knows it, and the wait a frame of it means, or none. Both readings
 * of a stack come from it: the first frame, top first, of a row with a wait decides what
 * the request waits on ({@link WaitClassifier}); a frame of any row is not the
 * application's, so the first frame of none is where the application's code waits. Rows
 * are matched in order, so a narrow row comes before the broad one it narrows
 * ({@code com.zaxxer.hikari.pool.HikariPool.getConnection} before {@code com.zaxxer.}).
 */
public final class LibraryFrames {

	/** What a frame of a row means for the request that runs it. */
	enum Meaning {

		/** A wait for an HTTP client's answer: {@link WaitKind#HTTP_RESPONSE}. */
		HTTP_CLIENT(WaitKind.HTTP_RESPONSE),

		/**
		 * A wait for one of an HTTP client's pooled connections: an
		 * {@link WaitKind#HTTP_RESPONSE} of that client, said to wait for its pool.
		 */
		HTTP_CLIENT_POOL(WaitKind.HTTP_RESPONSE),

		/** A JDBC driver's read: {@link WaitKind#JDBC_READ}. */
		JDBC_DRIVER(WaitKind.JDBC_READ),

		/** A wait for a JDBC pool's connection: {@link WaitKind#POOL_CONNECTION}. */
		JDBC_POOL(WaitKind.POOL_CONNECTION),

		/** A wait for room in an asynchronous logging queue. */
		LOGGING_QUEUE(WaitKind.LOGGING_QUEUE),

		/** A wait to write to {@code System.err} or {@code System.out}. */
		PRINT_STREAM(WaitKind.PRINT_STREAM),

		/** {@code Thread.sleep}. */
		SLEEP(WaitKind.SLEEP),

		/** The servlet container writing the response to a client that reads slowly. */
		RESPONSE_WRITE(WaitKind.RESPONSE_WRITE),

		/**
		 * The servlet container reading the request's body from a client that sends
		 * slowly.
		 */
		REQUEST_READ(WaitKind.REQUEST_READ),

		/**
		 * Spring's client (or Feign) on top of an HTTP client library: names the client
		 * an HTTP wait came through, and is no wait by itself.
		 */
		HTTP_CLIENT_API(null),

		/**
		 * A frame of the JVM, the server, a framework or a library that says nothing of
		 * the wait by itself: only "not the application's".
		 */
		LIBRARY(null);

		private final @Nullable WaitKind kind;

		Meaning(@Nullable WaitKind kind) {
			this.kind = kind;
		}

		@Nullable WaitKind kind() {
			return this.kind;
		}

	}

	/**
	 * One row of the table.
	 *
	 * @param prefix the start of the frames' class names (a package ending in a dot, or a
	 * class name, which also covers its nested and generated classes)
	 * @param methods the methods that mean the wait, empty for every method
	 * @param library the library as a reader knows it
	 * @param meaning what a frame of it means
	 */
	record Row(String prefix, Set<String> methods, String library, Meaning meaning) {

		boolean matches(StackTraceElement frame) {
			return frame.getClassName().startsWith(this.prefix)
					&& (this.methods.isEmpty() || this.methods.contains(frame.getMethodName()));
		}

	}

	/** HikariCP, whose frames also say a JDBC call runs on a pooled connection. */
	static final String HIKARI = "HikariCP";

	/** The table, narrow rows first. */
	static final List<Row> ROWS = List.of(
			// What the JVM itself waits in.
			row("java.lang.Thread", Set.of("sleep", "sleep0", "sleepNanos", "sleepNanos0"), "Thread.sleep",
					Meaning.SLEEP),
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
			// The watch's own frame on a request's thread (its filter, in its servlet
			// route).
			row("dev.safedefaults.stuckrequests.servlet.InFlightRequestsFilter", "safe-defaults", Meaning.LIBRARY));

	/**
	 * Markers of generated classes inside a class name (Spring's CGLIB proxies of the
	 * application's own beans): such a frame is the proxy's, not the application's code.
	 */
	private static final List<String> GENERATED = List.of("$$SpringCGLIB$$", "$$EnhancerBySpringCGLIB$$",
			"$$FastClassBySpringCGLIB$$");

	private LibraryFrames() {
	}

	/**
	 * The row a frame belongs to.
	 * @param frame the frame
	 * @return its row, or {@code null} when it is the application's
	 */
	static @Nullable Row of(StackTraceElement frame) {
		for (Row row : ROWS) {
			if (row.matches(frame)) {
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
		String type = frame.getClassName();
		return of(frame) == null && GENERATED.stream().noneMatch(type::contains);
	}

	private static Row row(String prefix, String library, Meaning meaning) {
		return new Row(prefix, Set.of(), library, meaning);
	}

	private static Row row(String prefix, Set<String> methods, String library, Meaning meaning) {
		return new Row(prefix, methods, library, meaning);
	}

}
