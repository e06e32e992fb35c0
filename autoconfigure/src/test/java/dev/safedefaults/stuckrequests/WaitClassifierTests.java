package dev.safedefaults.stuckrequests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.stuckrequests.JdbcPools.PoolState;
import dev.safedefaults.stuckrequests.hosts.HostsCalledSelector;
import dev.safedefaults.support.LibraryFrames;
import dev.safedefaults.testsupport.OnEveryJdk;
import dev.safedefaults.testsupport.SilentDownstream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The classifier on real threads blocked in real waits: a downstream that accepts and
 * never answers (a loopback server socket), its host and port learnt through the JVM's
 * one {@code HostsCalledSelector} (never handed to the classifier by the test), a
 * database that never answers its handshake, a Hikari pool with every connection taken, a
 * lock held by another thread, a monitor, a sleep, an embedded Tomcat writing to a client
 * that does not read and reading from one that does not send; and, where the library is
 * not on this module's class path, stacks captured from a real client (Apache HttpClient
 * 5.5.2 and 5.6.5, managed by Boot 4.0 and 4.1) or frames of the rows of
 * {@code LibraryFrames} (MyBatis, Oracle, SQL Server, jOOQ, Spring Data, Micrometer,
 * proxies), which decide both the wait and the application's frame. Each thread is freed
 * when its test ends.
 */
@OnEveryJdk
class WaitClassifierTests {

	/** How long a thread may take to reach its wait on a loaded machine. */
	private static final Duration REACHES_ITS_WAIT = Duration.ofSeconds(20);

	private final WaitClassifier classifier = new WaitClassifier(JdbcPools.UNKNOWN);

	private final List<AutoCloseable> toClose = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	@AfterEach
	void freeTheThreads() throws Exception {
		for (AutoCloseable closeable : this.toClose) {
			closeable.close();
		}
		for (Thread thread : this.threads) {
			thread.interrupt();
			thread.join(TimeUnit.SECONDS.toMillis(10));
			assertThat(thread.isAlive()).as("%s freed", thread.getName()).isFalse();
		}
	}

	@Test
	void aRestClientBuiltByHandOnTheJdkHttpClientWaitsForAnHttpResponseFromTheHostItsRequestCalled() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		InFlightRequests requests = new InFlightRequests();
		HostsCalledSelector.Registration registration = HostsCalledSelector.register();
		this.toClose.add(registration);
		registration.requests(requests);
		// Built once the JVM's selector notes the hosts called, as a client bean is.
		RestClient client = RestClient.builder().baseUrl(silent.url()).build();
		AtomicReference<InFlightRequest> inFlight = new AtomicReference<>();
		Thread thread = waiting("rest-client", () -> {
			inFlight.set(requests.began("GET"));
			return client.get().uri("/prices/1").retrieve().body(String.class);
		});
		String hostAndPort = URI.create(silent.url()).getAuthority();
		Wait wait = awaitTarget(thread, WaitKind.HTTP_RESPONSE, () -> inFlight.get().destination(),
				hostAndPort + " (JDK HttpClient via RestClient)");
		assertThat(wait.site()).startsWith(WaitClassifierTests.class.getName());
	}

	@Test
	void aJdkHttpClientSendWaitsForAnHttpResponse() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest.newBuilder(URI.create(silent.url() + "/x")).build();
		Thread thread = waiting("jdk-client", () -> client.send(request, HttpResponse.BodyHandlers.ofString()));
		assertThat(awaitWait(thread, WaitKind.HTTP_RESPONSE, () -> null).target())
			.isEqualTo("an unknown host (JDK HttpClient)");
	}

	@Test
	void anHttpUrlConnectionWaitsForAnHttpResponseFromTheHostItsRequestCalled() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		InFlightRequests requests = new InFlightRequests();
		HostsCalledSelector.Registration registration = HostsCalledSelector.register();
		this.toClose.add(registration);
		registration.requests(requests);
		AtomicReference<InFlightRequest> inFlight = new AtomicReference<>();
		Thread thread = waiting("url-connection", () -> {
			inFlight.set(requests.began("GET"));
			HttpURLConnection connection = (HttpURLConnection) URI.create(silent.url() + "/x").toURL().openConnection();
			this.toClose.add(connection::disconnect);
			return connection.getResponseCode();
		});
		String hostAndPort = URI.create(silent.url()).getAuthority();
		awaitTarget(thread, WaitKind.HTTP_RESPONSE, () -> inFlight.get().destination(),
				hostAndPort + " (HttpURLConnection)");
	}

	@Test
	void aDriverReadingFromADatabaseThatNeverAnswersWaitsInAJdbcReadOnAConnectionOfNoPool() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		String url = "jdbc:mariadb://" + URI.create(silent.url()).getAuthority() + "/test?connectTimeout=0";
		// The driver's classes initialised here, not on the thread interrupted at the
		// end: their first use starts the JVM's logging, which an interrupt would break
		// for every later test of this JVM (and the thread would be in a driver frame
		// before it reads anything).
		Class.forName("org.mariadb.jdbc.Configuration", true, WaitClassifierTests.class.getClassLoader());
		Thread thread = waiting("jdbc", () -> new org.mariadb.jdbc.Driver().connect(url, new java.util.Properties()));
		assertThat(awaitWait(thread, WaitKind.JDBC_READ, () -> null).target())
			.isEqualTo("MariaDB Connector/J, on a connection no Hikari pool handed out");
	}

	@Test
	void aHikariPoolWithEveryConnectionTakenIsNamedWithItsWaiters() throws Exception {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:stuck-requests");
		config.setPoolName("StuckRequestsPool");
		config.setMaximumPoolSize(1);
		config.setConnectionTimeout(Duration.ofMinutes(2).toMillis());
		HikariDataSource pool = closed(new HikariDataSource(config));
		Connection taken = closed(pool.getConnection());
		// The pools as the watch asks them; what Hikari's pool bean says of them:
		// StuckRequestsHikariAutoConfigurationTests.
		JdbcPools pools = new JdbcPools() {

			@Override
			public String waitedOn() {
				return "StuckRequestsPool";
			}

			@Override
			public String inUse() {
				return "StuckRequestsPool";
			}

			@Override
			public PoolState state() {
				return PoolState.NONE;
			}

		};
		WaitClassifier withPools = new WaitClassifier(pools);
		Thread thread = waiting("pool", pool::getConnection);
		await("pool waiter").atMost(REACHES_ITS_WAIT)
			.untilAsserted(() -> assertThat(withPools.classify(thread, null)).extracting(Wait::kind, Wait::target)
				.containsExactly(WaitKind.POOL_CONNECTION, "StuckRequestsPool"));
		assertThat(taken.isValid(1)).isTrue();
	}

	@Test
	void aLockHeldByAnotherThreadIsNamedWithItsHolder() throws Exception {
		ReentrantLock lock = new ReentrantLock();
		CountDownLatch release = new CountDownLatch(1);
		Thread holder = waiting("lock-holder", () -> {
			lock.lock();
			try {
				return release.await(1, TimeUnit.MINUTES);
			}
			finally {
				lock.unlock();
			}
		});
		await("lock held").atMost(REACHES_ITS_WAIT).until(lock::isLocked);
		this.toClose.add(release::countDown);
		Thread thread = waiting("lock-waiter", () -> {
			lock.lockInterruptibly();
			lock.unlock();
			return null;
		});
		assertThat(awaitWait(thread, WaitKind.LOCK, () -> null).target())
			.isEqualTo(ReentrantLock.class.getName() + "$NonfairSync, held by thread " + holder.getName());
	}

	@Test
	void aMonitorHeldByAnotherThreadIsNamedWithItsHolder() throws Exception {
		Object monitor = new Object();
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Thread holder = waiting("monitor-holder", () -> {
			synchronized (monitor) {
				held.countDown();
				return release.await(1, TimeUnit.MINUTES);
			}
		});
		assertThat(held.await(REACHES_ITS_WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		this.toClose.add(release::countDown);
		Thread thread = waiting("monitor-waiter", () -> {
			synchronized (monitor) {
				return null;
			}
		});
		assertThat(awaitWait(thread, WaitKind.LOCK, () -> null).target())
			.isEqualTo("the monitor of java.lang.Object, held by thread " + holder.getName());
	}

	@Test
	void aSleepIsASleep() throws Exception {
		Thread thread = waiting("sleeper", () -> {
			Thread.sleep(TimeUnit.MINUTES.toMillis(1));
			return null;
		});
		assertThat(awaitWait(thread, WaitKind.SLEEP, () -> null).site())
			.startsWith(WaitClassifierTests.class.getName() + ".lambda$");
	}

	@Test
	void framesAloneNameSystemErrUnderPrintStackTraceAndALoggingQueue() {
		StackTraceElement[] printing = { frame("java.io.FileOutputStream", "writeBytes"),
				frame("java.io.PrintStream", "write"), frame("java.lang.Throwable", "printStackTrace"),
				frame("com.example.Orders", "load") };
		assertThat(this.classifier.classify(printing, Thread.State.BLOCKED, "java.io.PrintStream@1", "other", null))
			.isEqualTo(new Wait(WaitKind.PRINT_STREAM, "System.err (printStackTrace), held by thread other",
					"com.example.Orders.load:1"));
		StackTraceElement[] logging = { frame("java.util.concurrent.locks.LockSupport", "parkNanos"),
				frame("com.lmax.disruptor.MultiProducerSequencer", "next"),
				frame("org.apache.logging.log4j.core.async.AsyncLoggerDisruptor", "enqueueLogMessageWhenQueueFull"),
				frame("com.example.Orders", "load") };
		assertThat(this.classifier.classify(logging, Thread.State.TIMED_WAITING, null, null, null).kind())
			.isEqualTo(WaitKind.LOGGING_QUEUE);
	}

	/**
	 * Apache HttpClient 5 is not on this module's class path (it would change which
	 * client Boot picks in the module's other tests): its stacks are those of a real
	 * {@code HttpClients.createSystem()} client of each version a supported Boot line
	 * manages (Boot 4.0: 5.5.2 with httpcore5 5.3.6; Boot 4.1: 5.6.5 with httpcore5
	 * 5.4.4) on a silent downstream, captured once and kept as resources: a call reading
	 * the response, and a sixth call to the same route waiting for one of the five pooled
	 * connections. (The other libraries of the table that decide a wait, Tomcat, Hikari,
	 * the MariaDB and H2 drivers, are of the same versions on both lines, and run in this
	 * module's other tests.)
	 */
	@ParameterizedTest
	@ValueSource(strings = { "apache-httpclient-5.5.2-stacks.txt", "apache-httpclient-5.6.5-stacks.txt" })
	void stacksOfTheApacheHttpClientsBoot40And41ManageNameTheirReadAndTheirPoolWait(String captured)
			throws IOException {
		Map<String, StackTraceElement[]> stacks = capturedStacks(captured);
		assertThat(this.classifier.classify(stacks.get("call-0"), Thread.State.RUNNABLE, null, null, "users:8080"))
			.isEqualTo(new Wait(WaitKind.HTTP_RESPONSE, "users:8080 (Apache HttpClient 5)", "Probe.lambda$main$2"));
		assertThat(this.classifier
			.classify(stacks.get("call-5"), Thread.State.TIMED_WAITING, "java.util.concurrent.locks.Condition@1", null,
					"users:8080")
			.target()).isEqualTo("users:8080 (Apache HttpClient 5, waiting for one of its pooled connections)");
	}

	/**
	 * Jetty (Boot's other servlet container) is not on this module's class path: its
	 * stacks are those of a real Jetty 12.1.14 (the version Boot 4.0 and 4.1 manage)
	 * writing to a client that never reads and reading a body its client stopped sending,
	 * captured once and kept as a resource. Each waits on a condition the JVM names as a
	 * lock: a slow client, never a lock.
	 */
	@Test
	void stacksOfJettyWritingToAndReadingFromSlowClientsAreSlowClientsNotLocks() throws IOException {
		Map<String, StackTraceElement[]> stacks = capturedStacks("jetty-12.1.14-stacks.txt");
		String condition = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject@1";
		assertThat(this.classifier.classify(stacks.get("download"), Thread.State.WAITING, condition, null, null))
			.isEqualTo(new Wait(WaitKind.RESPONSE_WRITE, "Jetty's blocking write of the response",
					"Probe$Download.doGet"));
		assertThat(this.classifier.classify(stacks.get("upload"), Thread.State.WAITING, condition, null, null))
			.isEqualTo(new Wait(WaitKind.REQUEST_READ, "Jetty's blocking read of the request's body",
					"Probe$Upload.doPost"));
	}

	@Test
	void aLeaseMethodOfTheApplicationIsNoPoolWaitOfAnHttpClient() {
		StackTraceElement[] frames = { frame("jdk.internal.misc.Unsafe", "park"),
				frame("java.util.concurrent.CompletableFuture", "get"),
				frame("jdk.internal.net.http.HttpClientImpl", "send"), frame("com.example.Leases", "lease"),
				frame("com.example.Leases", "renew") };
		assertThat(this.classifier.classify(frames, Thread.State.WAITING, null, null, null)).isEqualTo(
				new Wait(WaitKind.HTTP_RESPONSE, "an unknown host (JDK HttpClient)", "com.example.Leases.lease:1"));
	}

	/**
	 * A MyBatis mapper (a JDK proxy over MyBatis and MyBatis-Spring), a Spring Data
	 * repository, jOOQ, Micrometer's timer and Spring's CGLIB proxy sit between the
	 * application's frame and the driver's: none of them is where the application waits.
	 */
	@Test
	void framesOfMappersRepositoriesMetricsAndProxiesAreNotTheApplicationsAndTheDriverDecidesTheWait() {
		for (String driver : List.of("org.h2.command.Command", "oracle.jdbc.driver.T4CPreparedStatement",
				"com.microsoft.sqlserver.jdbc.SQLServerPreparedStatement",
				"org.postgresql.core.v3.QueryExecutorImpl")) {
			StackTraceElement[] frames = { frame("sun.nio.ch.NioSocketImpl", "read"), frame(driver, "execute"),
					frame("com.zaxxer.hikari.pool.HikariProxyPreparedStatement", "execute"),
					frame("org.apache.ibatis.executor.SimpleExecutor", "doQuery"),
					frame("org.mybatis.spring.SqlSessionTemplate$SqlSessionInterceptor", "invoke"),
					frame("jdk.proxy2.$Proxy87", "selectOne"), frame("org.apache.ibatis.binding.MapperProxy", "invoke"),
					frame("org.jooq.impl.AbstractQuery", "execute"),
					frame("org.springframework.data.jpa.repository.support.SimpleJpaRepository", "findById"),
					frame("io.micrometer.core.instrument.AbstractTimer", "recordCallable"),
					frame("com.example.Orders$$SpringCGLIB$$0", "load"), frame("com.example.OrderController", "get") };
			assertThat(this.classifier.classify(frames, Thread.State.RUNNABLE, null, null, null)).as(driver)
				.extracting(Wait::kind, Wait::site)
				.containsExactly(WaitKind.JDBC_READ, "com.example.OrderController.get:1");
			assertThat(this.classifier.classify(frames, Thread.State.RUNNABLE, null, null, null).target())
				.as("through a Hikari proxy")
				.endsWith(" on a pooled connection");
		}
	}

	@Test
	void everyRowOfTheTableIsNotTheApplicationsAndARowWithAWaitDecidesIt() {
		for (LibraryFrames.Row row : LibraryFrames.ROWS) {
			String method = row.methods().isEmpty() ? "any" : row.methods().iterator().next();
			StackTraceElement library = frame(row.prefix() + "Some", method);
			assertThat(LibraryFrames.isApplications(library)).as(row.prefix()).isFalse();
			StackTraceElement[] frames = { library, frame("com.example.Orders", "load") };
			Wait wait = this.classifier.classify(frames, Thread.State.WAITING, null, null, null);
			assertThat(wait.site()).as(row.prefix()).isEqualTo("com.example.Orders.load:1");
			WaitKind kind = WaitClassifier.kind(row.meaning());
			assertThat(wait.kind()).as(row.prefix()).isEqualTo((kind != null) ? kind : WaitKind.OTHER);
		}
	}

	/**
	 * An embedded Tomcat (Boot's default server) writing a large response to a client
	 * that never reads waits in its own blocking write: a slow client, not a lock (the
	 * JVM names the monitor Tomcat waits on); reading a body the client never sends, in
	 * its own blocking read.
	 */
	@Test
	void tomcatWritingToAClientThatDoesNotReadWaitsForASlowClientNotALock() throws Exception {
		AtomicReference<Thread> writer = new AtomicReference<>();
		AtomicReference<Thread> reader = new AtomicReference<>();
		int port = tomcat(writer, reader);
		Socket downloading = closed(new Socket(InetAddress.getLoopbackAddress(), port));
		downloading.getOutputStream()
			.write("GET /download HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		Socket uploading = closed(new Socket(InetAddress.getLoopbackAddress(), port));
		uploading.getOutputStream()
			.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc"
				.getBytes(StandardCharsets.US_ASCII));
		await("both requests running").atMost(REACHES_ITS_WAIT)
			.until(() -> writer.get() != null && reader.get() != null);
		Wait write = awaitWait(writer.get(), WaitKind.RESPONSE_WRITE, () -> null);
		assertThat(write.target()).isEqualTo("Tomcat's blocking write of the response");
		assertThat(write.site()).startsWith(WaitClassifierTests.class.getName() + "$");
		Wait read = awaitWait(reader.get(), WaitKind.REQUEST_READ, () -> null);
		assertThat(read.target()).isEqualTo("Tomcat's blocking read of the request's body");
	}

	private int tomcat(AtomicReference<Thread> writer, AtomicReference<Thread> reader) throws Exception {
		Tomcat tomcat = new Tomcat();
		tomcat.setPort(0);
		tomcat.setBaseDir(Files.createTempDirectory("stuck-requests-tomcat").toString());
		Context context = tomcat.addContext("", null);
		Tomcat.addServlet(context, "slow-clients", new HttpServlet() {

			@Override
			protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
				writer.set(Thread.currentThread());
				byte[] chunk = new byte[64 * 1024];
				OutputStream body = response.getOutputStream();
				for (int i = 0; i < 1600; i++) {
					body.write(chunk);
				}
			}

			@Override
			protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
				reader.set(Thread.currentThread());
				request.getInputStream().readAllBytes();
			}

		});
		context.addServletMappingDecoded("/*", "slow-clients");
		tomcat.getConnector();
		tomcat.start();
		this.toClose.add(() -> {
			tomcat.stop();
			tomcat.destroy();
		});
		return tomcat.getConnector().getLocalPort();
	}

	/**
	 * Stacks kept as a resource: a {@code == name state} line, then one class|method a
	 * line.
	 */
	private static Map<String, StackTraceElement[]> capturedStacks(String resource) throws IOException {
		Map<String, StackTraceElement[]> stacks = new LinkedHashMap<>();
		try (InputStream in = WaitClassifierTests.class.getResourceAsStream(resource)) {
			assertThat(in).as(resource).isNotNull();
			String name = null;
			List<StackTraceElement> frames = new ArrayList<>();
			for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
				if (line.startsWith("== ")) {
					if (name != null) {
						stacks.put(name, frames.toArray(StackTraceElement[]::new));
					}
					name = line.split(" ")[1];
					frames = new ArrayList<>();
				}
				else if (!line.startsWith("#") && line.contains("|")) {
					String[] parts = line.split("\\|");
					frames.add(new StackTraceElement(parts[0], parts[1], null, -1));
				}
			}
			if (name != null) {
				stacks.put(name, frames.toArray(StackTraceElement[]::new));
			}
		}
		return stacks;
	}

	private static StackTraceElement frame(String type, String method) {
		return new StackTraceElement(type, method, "X.java", 1);
	}

	/**
	 * Waits, bounded, until the thread's wait is of the kind expected, and returns it.
	 * The destination is what the thread's request noted, as the watch reads it.
	 */
	private Wait awaitWait(Thread thread, WaitKind kind, Supplier<@Nullable String> destination) {
		AtomicReference<Wait> seen = new AtomicReference<>();
		await(thread.getName() + " waiting on " + kind).atMost(REACHES_ITS_WAIT).untilAsserted(() -> {
			seen.set(this.classifier.classify(thread, destination.get()));
			assertThat(seen.get().kind()).as("%s", seen.get()).isEqualTo(kind);
		});
		return seen.get();
	}

	/**
	 * Waits, bounded, until the thread's wait is of the kind and names the target
	 * expected: the client asks the proxy selector a moment after its first frames are on
	 * the stack, so the host is learnt a moment after the wait is an HTTP one (the watch
	 * looks a second or more after a request began).
	 */
	private Wait awaitTarget(Thread thread, WaitKind kind, Supplier<@Nullable String> destination, String target) {
		AtomicReference<Wait> seen = new AtomicReference<>();
		await(thread.getName() + " waiting on " + target).atMost(REACHES_ITS_WAIT).untilAsserted(() -> {
			seen.set(this.classifier.classify(thread, destination.get()));
			assertThat(seen.get()).as("%s", seen.get())
				.extracting(Wait::kind, Wait::target)
				.containsExactly(kind, target);
		});
		return seen.get();
	}

	private Thread waiting(String name, java.util.concurrent.Callable<?> action) {
		Thread thread = new Thread(() -> {
			try {
				action.call();
			}
			catch (Exception ex) {
				// Freed at the end of the test: the wait fails, as it should.
			}
		}, "stuck-" + name);
		thread.setDaemon(true);
		thread.start();
		this.threads.add(thread);
		return thread;
	}

	/**
	 * A silent downstream whose calls are answered when the test ends (closing the
	 * connections can make a client retry), then closed.
	 */
	private SilentDownstream answeredAtTheEnd(SilentDownstream silent) {
		this.toClose.add(0, silent);
		this.toClose.add(0, silent::answerEveryCall);
		return silent;
	}

	private <T extends AutoCloseable> T closed(T closeable) {
		this.toClose.add(0, closeable);
		return closeable;
	}

}
