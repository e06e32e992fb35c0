package dev.safedefaults.stuckrequests;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * The stuck-request watch's finding (incident 6 for the clients the starter cannot
 * reach), declared once, with a variant per kind of wait so that its message and fix are
 * true for what the requests wait on. Args of every variant: the number of requests, the
 * threshold, what they wait on, and what more is known (the pool's state, the endpoints).
 */
public final class StuckRequestsFindings implements FindingDeclarations {

	/** The catalogue's declaration; raised only through one of its variants below. */
	static final FindingType STUCK_REQUESTS = FindingType.declare("stuck-requests.waiting", WARNING,
			"Requests have been running longer than safe-defaults.stuck-requests.threshold: each was examined once "
					+ "from its own thread, and the finding says what they wait on (an HTTP response and from which "
					+ "host:port and client library, a JDBC read, a pool connection, a lock, a sleep), with the fix "
					+ "for that kind of wait. Every incident was found this way, in a thread dump; a request that "
					+ "waits for ever keeps its thread, and once every thread waits the service answers nothing "
					+ "(incident 6). Shown while they last.",
			"%1$s %2$s", "Bound the wait.");

	/** Waiting for an HTTP response. */
	static final FindingType HTTP_RESPONSE = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s wait for an HTTP response from %3$s%4$s. Only the downstream or a read "
					+ "timeout longer than that ends the wait (by default the JDK HttpClient and HttpURLConnection "
					+ "have none, Apache HttpClient 5 gives up after 3 minutes of silence): each such request keeps "
					+ "its thread (and any database connection it holds), and once every request thread waits the "
					+ "service answers nothing (incident 6).",
			"Give this client a read timeout: build it from Boot's RestClient.Builder, RestTemplateBuilder or "
					+ "WebClient.Builder bean (or an HTTP service group), which gets the starter's timeouts "
					+ "(spring.http.clients.read-timeout), instead of RestClient.builder(), RestClient.create(), "
					+ "new RestTemplate() or WebClient.create(); or set the library's own: the JDK HttpClient's "
					+ "JdkClientHttpRequestFactory.setReadTimeout or HttpRequest timeout, Apache HttpClient 5's "
					+ "RequestConfig responseTimeout (and connectionRequestTimeout for its pool), Jetty's "
					+ "HttpClient idle timeout, Reactor Netty's responseTimeout, HttpURLConnection's setReadTimeout.");

	/** Reading from a JDBC connection. */
	static final FindingType JDBC_READ = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s wait in a JDBC read: %3$s%4$s. The database sends nothing, and without a "
					+ "socket timeout the driver waits for ever, holding the request thread and the pool's "
					+ "connection.",
			"Give the pool's driver a socket timeout above the slowest legitimate query (socketTimeout for "
					+ "Connector/J, MariaDB Connector/J and pgjdbc, in spring.datasource.hikari.data-source-properties); "
					+ "look on the database for the lock or query it is waiting on.");

	/** Waiting for a connection of a JDBC pool. */
	static final FindingType POOL_CONNECTION = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s wait for a connection from %3$s%4$s. Every connection is taken by requests "
					+ "that do not end; with spring.jpa.open-in-view (Boot's default) a request that has touched the "
					+ "database keeps its connection to its end, remote calls included.",
			"Free the holders: bound what they wait on (the fix of their finding); set spring.jpa.open-in-view=false "
					+ "and keep remote calls out of transactions, so that a hung downstream takes no database "
					+ "connection with it; spring.datasource.hikari.connection-timeout bounds the wait for one.");

	/** Waiting on System.err or System.out. */
	static final FindingType PRINT_STREAM = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s wait to write to %3$s%4$s: a PrintStream lets one writer at a time, and "
					+ "printStackTrace() holds it for every line of the trace (incident 8).",
			"Write nothing per request to System.err or System.out: log through the logging framework, once per "
					+ "exception, instead of printStackTrace(); find what prints (safe-defaults.runtime.enabled=true "
					+ "names the exceptions printed to System.err).");

	/** Waiting for room in a logging queue. */
	static final FindingType LOGGING_QUEUE = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s wait for room in %3$s%4$s: the appender behind the queue writes slower "
					+ "than requests log (incident 2).",
			"Keep logging off the request's path: leave safe-defaults.logging.queue-full-policy at discard (INFO and "
					+ "below are dropped and counted when the queue is full), log less per request, and find why "
					+ "the appender is slow (a stalled stdout, a remote appender).");

	/** Waiting for an application's lock or monitor. */
	static final FindingType LOCK = STUCK_REQUESTS.because("%1$s running longer than %2$s wait for a lock: %3$s%4$s.",
			"Find what the lock's holder does (a thread dump shows it: jcmd <pid> Thread.print) and bound it; "
					+ "do no I/O while holding a lock that requests need, and wait for a lock with a timeout "
					+ "(tryLock) where the wait can be long.");

	/** Sleeping. */
	static final FindingType SLEEP = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s sleep: %3$s%4$s. A sleeping request keeps its thread.",
			"Do not sleep on a request thread: retry with a bounded back-off off the request's path, or answer "
					+ "at once and let the client retry.");

	/** Running, or waiting on something not recognised. */
	static final FindingType OTHER = STUCK_REQUESTS.because("%1$s running longer than %2$s are %3$s%4$s.",
			"Look at the frame named: a loop that does not end, or a wait the watch does not recognise; a thread "
					+ "dump (jcmd <pid> Thread.print) shows the whole stack.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(STUCK_REQUESTS);
	}

}
