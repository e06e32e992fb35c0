package dev.safedefaults.stuckrequests;

import java.util.List;

import dev.safedefaults.check.FindingDeclarations;
import dev.safedefaults.check.FindingType;

import static dev.safedefaults.check.Severity.WARNING;

/**
 * The stuck-request watch's finding (incident 6 for the clients the starter cannot
 * reach), declared once, with a variant per kind of wait so that its message and fix are
 * true for what the requests wait on. Args of every variant: the number of requests with
 * its noun ({@code 1 request}, {@code 3 requests}), the threshold, what they wait on,
 * what more is known (the code, the endpoints, the pool's state), then the verbs for that
 * number ({@code is} or {@code are}, {@code waits} or {@code wait}) and the command that
 * takes a thread dump showing those threads on the JDK they run on.
 */
public final class StuckRequestsFindings implements FindingDeclarations {

	/** The catalogue's declaration; raised only through one of its variants below. */
	public static final FindingType STUCK_REQUESTS = FindingType.declare("stuck-requests.waiting", WARNING,
			"Requests have been running longer than safe-defaults.stuck-requests.threshold: each was examined once "
					+ "from its own thread (an asynchronous one from its Callable's, or named as an asynchronous result "
					+ "whose work the watch cannot see), and the finding says what they wait on (an HTTP response and "
					+ "from which host:port and client library, a JDBC read, a pool connection, a lock, a sleep, a slow "
					+ "client, an asynchronous result), "
					+ "with the fix for that kind of wait. Every incident was found this way, in a thread dump; a "
					+ "request that waits for ever keeps its thread, and once every thread waits the service answers "
					+ "nothing (incident 6). Shown while they last.",
			"%1$s %2$s", "Bound the wait.");

	/** Waiting for an HTTP response. */
	static final FindingType HTTP_RESPONSE = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s for an HTTP response from %3$s%4$s. Only the downstream or a read "
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
			"%1$s running longer than %2$s %6$s in a JDBC read: %3$s%4$s. The database sends nothing, and without a "
					+ "socket timeout the driver waits for ever, holding the request thread and the pool's "
					+ "connection.",
			"Give the pool's driver a socket timeout above the slowest legitimate query (socketTimeout for "
					+ "Connector/J, MariaDB Connector/J and pgjdbc, in spring.datasource.hikari.data-source-properties); "
					+ "look on the database for the lock or query it is waiting on.");

	/** Waiting for a connection of a JDBC pool. */
	static final FindingType POOL_CONNECTION = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s for a connection from %3$s%4$s. Every connection is taken by requests "
					+ "that do not end; with spring.jpa.open-in-view (Boot's default) a request that has touched the "
					+ "database keeps its connection to its end, remote calls included.",
			"Free the holders: bound what they wait on (the fix of their finding); set spring.jpa.open-in-view=false "
					+ "and keep remote calls out of transactions, so that a hung downstream takes no database "
					+ "connection with it; spring.datasource.hikari.connection-timeout bounds the wait for one.");

	/** Waiting on System.err or System.out. */
	static final FindingType PRINT_STREAM = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s to write to %3$s%4$s: a PrintStream lets one writer at a time, and "
					+ "printStackTrace() holds it for every line of the trace (incident 8).",
			"Write nothing per request to System.err or System.out: log through the logging framework, once per "
					+ "exception, instead of printStackTrace(); find what prints (safe-defaults.runtime.enabled=true "
					+ "names the exceptions printed to System.err).");

	/** Waiting for room in a logging queue. */
	static final FindingType LOGGING_QUEUE = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s for room in %3$s%4$s: the appender behind the queue writes slower "
					+ "than requests log (incident 2).",
			"Keep logging off the request's path: leave safe-defaults.logging.queue-full-policy at discard (INFO and "
					+ "below are dropped and counted when the queue is full), log less per request, and find why "
					+ "the appender is slow (a stalled stdout, a remote appender).");

	/** Waiting for an application's lock or monitor. */
	static final FindingType LOCK = STUCK_REQUESTS.because("%1$s running longer than %2$s %6$s for a lock: %3$s%4$s.",
			"Find what the lock's holder does (%7$s) and bound it; do no I/O while holding a lock that requests "
					+ "need, and wait for a lock with a timeout (tryLock) where the wait can be long.");

	/** Sleeping. */
	static final FindingType SLEEP = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s in a sleep: %3$s%4$s. A sleeping request keeps its thread.",
			"Do not sleep on a request thread: retry with a bounded back-off off the request's path, or answer "
					+ "at once and let the client retry.");

	/**
	 * The servlet container writing the response to a client that reads it slowly: not a
	 * fault of the service, but a thread taken all the same.
	 */
	static final FindingType RESPONSE_WRITE = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s for the client to read the response: %3$s%4$s. The server writes "
					+ "as fast as the client reads, so a large body to a slow or distant client takes as long as "
					+ "the client takes, and the request keeps its thread meanwhile; this is no fault of the "
					+ "service, and no lock. A client that stops reading altogether is cut off once nothing could "
					+ "be written for the server's connection timeout (Tomcat: server.tomcat.connection-timeout, "
					+ "60s unless set; Jetty: server.jetty.connection-idle-timeout, 30s unless set).",
			"Nothing to fix for downloads you expect to be long. If they take the request threads other requests "
					+ "need: serve large bodies from a static server, a CDN or an object store's signed URL; or run "
					+ "requests on virtual threads (spring.threads.virtual.enabled=true, JDK 21 or later), where a "
					+ "slow client holds no platform thread; lower the server's connection timeout to drop clients "
					+ "that stop reading sooner.");

	/**
	 * The servlet container reading the request's body from a client that sends it
	 * slowly.
	 */
	static final FindingType REQUEST_READ = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s for the client to send the request's body: %3$s%4$s. The server "
					+ "reads as fast as the client sends, and the request keeps its thread meanwhile: a large "
					+ "upload on a slow link, or a client that sends slowly on purpose. A client that stops sending "
					+ "altogether is cut off once nothing arrived for the server's connection timeout (Tomcat: "
					+ "server.tomcat.connection-timeout, 60s unless set; Jetty: server.jetty.connection-idle-timeout, "
					+ "30s unless set).",
			"Nothing to fix for uploads you expect to be long. If they take the request threads other requests "
					+ "need: take large uploads through an object store's signed URL; bound the body "
					+ "(spring.servlet.multipart.max-request-size); run requests on "
					+ "virtual threads (spring.threads.virtual.enabled=true, JDK 21 or later); lower "
					+ "the server's connection timeout to drop clients that stop sending sooner.");

	/**
	 * An asynchronous request (its handler returned, its response not complete) whose
	 * work the watch cannot examine: run where it cannot see, queued, or done.
	 */
	static final FindingType ASYNC_RESULT = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %6$s for an asynchronous result: %3$s%4$s. An asynchronous request's "
					+ "handler has returned (a DeferredResult, a CompletableFuture, a Callable, a "
					+ "StreamingResponseBody) and it holds no request thread, but its client waits, and so does "
					+ "whatever its work waits on. The watch "
					+ "examines the thread of a Callable Spring MVC runs; the thread that completes a "
					+ "DeferredResult or a CompletableFuture is not known to it, so what that work waits on is not "
					+ "said here.",
			"Bound the work and the request: give a DeferredResult a timeout (new DeferredResult<>(millis)) and a "
					+ "CompletableFuture one (orTimeout, completeOnTimeout); bound what the work calls (a read "
					+ "timeout on its client); set spring.mvc.async.request-timeout (unset, the container's own, "
					+ "30s on Tomcat), which ends the request, though not work that ignores an interrupt. To see "
					+ "what the work waits on, return a Callable (the watch examines its thread) or look at the "
					+ "threads of the executor that runs it (%7$s).");

	/** Running, or waiting on something not recognised. */
	static final FindingType OTHER = STUCK_REQUESTS.because(
			"%1$s running longer than %2$s %5$s %3$s%4$s, in no wait the watch recognises.",
			"The watch knows where the thread is, not why: a runnable thread computes (which may be legitimate: a "
					+ "report, an export, a large batch), loops, or waits in a socket read the JVM reports as "
					+ "runnable; a waiting one waits on something the watch has no row for. Look at the frame named "
					+ "and at the whole stack (%7$s); if the work is legitimate, take it off the request's path "
					+ "(a job, an asynchronous request) or raise safe-defaults.stuck-requests.threshold above it.");

	@Override
	public List<FindingType> findingTypes() {
		return List.of(STUCK_REQUESTS);
	}

}
