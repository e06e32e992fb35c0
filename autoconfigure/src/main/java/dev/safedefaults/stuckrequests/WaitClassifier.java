package dev.safedefaults.stuckrequests;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads what a thread waits on from its stack, top frame first: the first frame of a
 * library it knows (an HTTP client, a JDBC driver or pool, a logging queue, a
 * {@code PrintStream}, {@code Thread.sleep}) decides; a thread in none of them waits on a
 * lock when the JVM names one, else it is reported as running where its application code
 * is. No reflection: class and method names of the frames, the thread's state and the
 * lock the JVM reports.
 */
final class WaitClassifier {

	/**
	 * HTTP client libraries by package, as a user reads their names; Spring's request
	 * factories name the library they run on where its own frames are not on the caller's
	 * stack (the JDK HttpClient's future, Reactor Netty's Mono).
	 */
	private static final Map<String, String> HTTP_LIBRARIES = Map.ofEntries(
			Map.entry("jdk.internal.net.http.", "JDK HttpClient"), Map.entry("java.net.http.", "JDK HttpClient"),
			Map.entry("org.springframework.http.client.JdkClientHttp", "JDK HttpClient"),
			Map.entry("org.apache.hc.client5.", "Apache HttpClient 5"),
			Map.entry("org.springframework.http.client.HttpComponentsClientHttp", "Apache HttpClient 5"),
			Map.entry("org.apache.http.", "Apache HttpClient 4"),
			Map.entry("org.eclipse.jetty.client.", "Jetty HttpClient"),
			Map.entry("org.springframework.http.client.JettyClientHttp", "Jetty HttpClient"),
			Map.entry("reactor.netty.", "Reactor Netty"),
			Map.entry("org.springframework.http.client.ReactorClientHttp", "Reactor Netty"),
			Map.entry("sun.net.www.protocol.http.", "HttpURLConnection"),
			Map.entry("org.springframework.http.client.SimpleClientHttp", "HttpURLConnection"),
			Map.entry("org.springframework.http.client.SimpleBufferingClientHttp", "HttpURLConnection"),
			Map.entry("okhttp3.", "OkHttp"));

	/**
	 * Spring's client on top of the library (the innermost one on the stack names it).
	 */
	private static final List<String[]> SPRING_CLIENTS = List.of(
			new String[] { "org.springframework.web.client.DefaultRestClient", "RestClient" },
			new String[] { "org.springframework.web.client.RestTemplate", "RestTemplate" },
			new String[] { "org.springframework.web.reactive.function.client.", "WebClient" },
			new String[] { "feign.", "Feign" });

	private static final Map<String, String> JDBC_DRIVERS = Map.of("com.mysql.cj.", "MySQL Connector/J",
			"org.mariadb.jdbc.", "MariaDB Connector/J", "org.postgresql.", "pgjdbc", "oracle.jdbc.", "Oracle JDBC",
			"com.microsoft.sqlserver.", "SQL Server JDBC", "org.h2.", "H2");

	/**
	 * Frames of the JVM, the server and the frameworks, which are not the application's.
	 */
	private static final List<String> NOT_APPLICATION = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
			"jakarta.", "org.springframework.", "org.apache.", "com.zaxxer.", "org.hibernate.", "feign.", "reactor.",
			"io.netty.", "org.eclipse.jetty.", "com.mysql.", "org.mariadb.", "org.postgresql.", "com.lmax.",
			"ch.qos.logback.", "tools.jackson.", "com.fasterxml.", "okhttp3.", "kotlin.",
			"dev.safedefaults.stuckrequests.InFlightRequestsFilter");

	/** Enough frames to reach the servlet's from any client library. */
	private static final int MAX_DEPTH = 256;

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final JdbcPools pools;

	WaitClassifier(JdbcPools pools) {
		this.pools = pools;
	}

	/**
	 * Classifies what a thread waits on now, from its stack, state and lock as the JVM's
	 * thread bean reports them.
	 * @param thread the thread
	 * @param destination the last HTTP destination its request asked about, or
	 * {@code null}
	 * @return the wait
	 */
	Wait classify(Thread thread, @Nullable String destination) {
		@SuppressWarnings("deprecation") // threadId() is JDK 19+; the baseline is 17
		ThreadInfo info = this.threads.getThreadInfo(thread.getId(), MAX_DEPTH);
		if (info == null) {
			// A virtual thread, which the JVM's thread bean does not see, or one just
			// ended.
			return classify(thread.getStackTrace(), thread.getState(), null, null, destination);
		}
		return classify(info.getStackTrace(), info.getThreadState(), info.getLockName(), info.getLockOwnerName(),
				destination);
	}

	/**
	 * Classifies one thread's wait.
	 * @param frames its stack, top frame first
	 * @param state its state
	 * @param lock the lock the JVM says it waits for, or {@code null}
	 * @param lockOwner the thread that holds that lock, or {@code null}
	 * @param destination the last HTTP destination its request asked about, or
	 * {@code null}
	 * @return the wait
	 */
	Wait classify(StackTraceElement[] frames, Thread.State state, @Nullable String lock, @Nullable String lockOwner,
			@Nullable String destination) {
		String site = applicationSite(frames);
		for (StackTraceElement frame : frames) {
			String type = frame.getClassName();
			String method = frame.getMethodName();
			if ("java.lang.Thread".equals(type) && method.startsWith("sleep")) {
				return new Wait(WaitKind.SLEEP, "Thread.sleep", site);
			}
			if (type.startsWith("com.zaxxer.hikari.pool.HikariPool") && "getConnection".equals(method)) {
				return new Wait(WaitKind.POOL_CONNECTION, this.pools.waitedOn(), site);
			}
			String driver = library(JDBC_DRIVERS, type);
			if (driver != null) {
				return new Wait(WaitKind.JDBC_READ, driver + " on " + this.pools.inUse(), site);
			}
			String http = library(HTTP_LIBRARIES, type);
			if (http != null) {
				return new Wait(WaitKind.HTTP_RESPONSE, httpTarget(frames, http, destination), site);
			}
			if (type.startsWith("com.lmax.disruptor.") || type.startsWith("org.apache.logging.log4j.core.async.")) {
				return new Wait(WaitKind.LOGGING_QUEUE, "Log4j2's async logging queue", site);
			}
			if (type.startsWith("ch.qos.logback.core.AsyncAppenderBase")) {
				return new Wait(WaitKind.LOGGING_QUEUE, "a Logback AsyncAppender's queue", site);
			}
			if ("java.io.PrintStream".equals(type)
					|| ("java.lang.Throwable".equals(type) && "printStackTrace".equals(method))) {
				return new Wait(WaitKind.PRINT_STREAM, printStream(frames, lockOwner), site);
			}
		}
		if (lock != null && state != Thread.State.RUNNABLE) {
			return new Wait(WaitKind.LOCK, lockTarget(lock, lockOwner, state), site);
		}
		return new Wait(WaitKind.OTHER, state.toString().toLowerCase(Locale.ROOT).replace('_', ' '), site);
	}

	private static String httpTarget(StackTraceElement[] frames, String library, @Nullable String destination) {
		StringBuilder target = new StringBuilder((destination != null) ? destination : "an unknown host");
		target.append(" (").append(library);
		String client = springClient(frames);
		if (client != null) {
			target.append(" via ").append(client);
		}
		if (waitsForPooledConnection(frames)) {
			target.append(", waiting for one of its pooled connections");
		}
		return target.append(')').toString();
	}

	private static @Nullable String springClient(StackTraceElement[] frames) {
		for (StackTraceElement frame : frames) {
			for (String[] client : SPRING_CLIENTS) {
				if (frame.getClassName().startsWith(client[0])) {
					return client[1];
				}
			}
		}
		return null;
	}

	/** Apache HttpClient's classic pool: 5 connections per route unless configured. */
	private static boolean waitsForPooledConnection(StackTraceElement[] frames) {
		for (StackTraceElement frame : frames) {
			if (frame.getClassName().startsWith("org.apache.hc.core5.pool.") || "lease".equals(frame.getMethodName())) {
				return true;
			}
			if (frame.getClassName().startsWith("org.apache.hc.client5.")) {
				return false;
			}
		}
		return false;
	}

	private static String printStream(StackTraceElement[] frames, @Nullable String lockOwner) {
		for (StackTraceElement frame : frames) {
			if ("printStackTrace".equals(frame.getMethodName())) {
				return "System.err (printStackTrace)" + heldBy(lockOwner);
			}
		}
		return "System.err or System.out" + heldBy(lockOwner);
	}

	private static String lockTarget(String lock, @Nullable String lockOwner, Thread.State state) {
		String kind = (state == Thread.State.BLOCKED) ? "the monitor of " : "";
		return kind + lockClass(lock) + heldBy(lockOwner);
	}

	/** A lock's name is its class and identity hash: the class is what a reader needs. */
	private static String lockClass(String lock) {
		int at = lock.indexOf('@');
		return (at > 0) ? lock.substring(0, at) : lock;
	}

	private static String heldBy(@Nullable String lockOwner) {
		return (lockOwner != null) ? ", held by thread " + lockOwner : "";
	}

	private static @Nullable String library(Map<String, String> libraries, String type) {
		for (Map.Entry<String, String> library : libraries.entrySet()) {
			if (type.startsWith(library.getKey())) {
				return library.getValue();
			}
		}
		return null;
	}

	/**
	 * The first frame of the application's own code: where a reader starts.
	 * @param frames the stack, top frame first
	 * @return the frame as {@code class.method:line}, or the top frame's when none is the
	 * application's
	 */
	static String applicationSite(StackTraceElement[] frames) {
		for (StackTraceElement frame : frames) {
			if (NOT_APPLICATION.stream().noneMatch(frame.getClassName()::startsWith)) {
				return frame(frame);
			}
		}
		return (frames.length > 0) ? frame(frames[0]) : "no frame";
	}

	private static String frame(StackTraceElement frame) {
		String line = (frame.getLineNumber() > 0) ? ":" + frame.getLineNumber() : "";
		return frame.getClassName() + "." + frame.getMethodName() + line;
	}

}
