package dev.safedefaults.stuckrequests;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.testsupport.OnEveryJdk;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterEach;
import dev.safedefaults.stuckrequests.JdbcPools.PoolState;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The classifier on real threads blocked in real waits: a downstream that accepts and
 * never answers (a loopback server socket), a database that never answers its handshake,
 * a Hikari pool with every connection taken, a lock held by another thread, a monitor, a
 * sleep. Each thread is freed when its test ends.
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
	void aRestClientBuiltByHandOnTheJdkHttpClientWaitsForAnHttpResponse() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		RestClient client = RestClient.builder().baseUrl(silent.url()).build();
		Thread thread = waiting("rest-client", () -> client.get().uri("/prices/1").retrieve().body(String.class));
		String hostAndPort = URI.create(silent.url()).getAuthority();
		Wait wait = awaitWait(thread, WaitKind.HTTP_RESPONSE, hostAndPort);
		assertThat(wait.target()).isEqualTo(hostAndPort + " (JDK HttpClient via RestClient)");
		assertThat(wait.site()).startsWith(WaitClassifierTests.class.getName());
	}

	@Test
	void aJdkHttpClientSendWaitsForAnHttpResponse() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest.newBuilder(URI.create(silent.url() + "/x")).build();
		Thread thread = waiting("jdk-client", () -> client.send(request, HttpResponse.BodyHandlers.ofString()));
		assertThat(awaitWait(thread, WaitKind.HTTP_RESPONSE, null).target())
			.isEqualTo("an unknown host (JDK HttpClient)");
	}

	@Test
	void anHttpUrlConnectionWaitsForAnHttpResponse() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		Thread thread = waiting("url-connection", () -> {
			HttpURLConnection connection = (HttpURLConnection) URI.create(silent.url() + "/x").toURL().openConnection();
			this.toClose.add(connection::disconnect);
			return connection.getResponseCode();
		});
		String hostAndPort = URI.create(silent.url()).getAuthority();
		assertThat(awaitWait(thread, WaitKind.HTTP_RESPONSE, hostAndPort).target())
			.isEqualTo(hostAndPort + " (HttpURLConnection)");
	}

	@Test
	void aDriverReadingFromADatabaseThatNeverAnswersWaitsInAJdbcRead() throws Exception {
		SilentDownstream silent = answeredAtTheEnd(new SilentDownstream());
		String url = "jdbc:mariadb://" + URI.create(silent.url()).getAuthority() + "/test?connectTimeout=0";
		Thread thread = waiting("jdbc", () -> new org.mariadb.jdbc.Driver().connect(url, new java.util.Properties()));
		assertThat(awaitWait(thread, WaitKind.JDBC_READ, null).target())
			.isEqualTo("MariaDB Connector/J on a pooled connection");
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
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("dataSource", pool);
		WaitClassifier withPools = new WaitClassifier(new HikariPools(beans.getBeanProvider(DataSource.class)));
		Thread thread = waiting("pool", pool::getConnection);
		await("pool waiter").atMost(REACHES_ITS_WAIT)
			.untilAsserted(() -> assertThat(withPools.classify(thread, null)).extracting(Wait::kind, Wait::target)
				.containsExactly(WaitKind.POOL_CONNECTION, "StuckRequestsPool"));
		assertThat(new HikariPools(beans.getBeanProvider(DataSource.class)).state())
			.isEqualTo(new PoolState("StuckRequestsPool: 1 of 1 connections in use, 1 threads waiting for one", 1));
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
		assertThat(awaitWait(thread, WaitKind.LOCK, null).target())
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
		assertThat(awaitWait(thread, WaitKind.LOCK, null).target())
			.isEqualTo("the monitor of java.lang.Object, held by thread " + holder.getName());
	}

	@Test
	void aSleepIsASleep() throws Exception {
		Thread thread = waiting("sleeper", () -> {
			Thread.sleep(TimeUnit.MINUTES.toMillis(1));
			return null;
		});
		assertThat(awaitWait(thread, WaitKind.SLEEP, null).site())
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
	 * Apache HttpClient 5 is not on this module's class path; its frames are those of a
	 * real {@code HttpClients.createSystem()} client (5.1.3) on a silent downstream: a
	 * call reading the response, and a sixth call to the same route waiting for one of
	 * the five pooled connections.
	 */
	@Test
	void framesOfApacheHttpClient5NameItsReadAndItsPoolWait() {
		StackTraceElement[] reading = { frame("sun.nio.ch.NioSocketImpl", "read"),
				frame("java.net.Socket$SocketInputStream", "read"),
				frame("org.apache.hc.core5.http.impl.io.SessionInputBufferImpl", "fillBuffer"),
				frame("org.apache.hc.core5.http.impl.io.DefaultBHttpClientConnection", "receiveResponseHeader"),
				frame("org.apache.hc.core5.http.impl.io.HttpRequestExecutor", "execute"),
				frame("org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager$InternalConnectionEndpoint",
						"execute"),
				frame("org.apache.hc.client5.http.impl.classic.MainClientExec", "execute"),
				frame("org.springframework.http.client.HttpComponentsClientHttpRequest", "executeInternal"),
				frame("org.springframework.web.client.DefaultRestClient$DefaultRequestBodyUriSpec", "exchangeInternal"),
				frame("com.example.Prices", "price") };
		assertThat(this.classifier.classify(reading, Thread.State.RUNNABLE, null, null, "users:8080"))
			.isEqualTo(new Wait(WaitKind.HTTP_RESPONSE, "users:8080 (Apache HttpClient 5 via RestClient)",
					"com.example.Prices.price:1"));
		StackTraceElement[] pooled = { frame("java.lang.Object", "wait"),
				frame("org.apache.hc.core5.concurrent.BasicFuture", "get"),
				frame("org.apache.hc.core5.pool.StrictConnPool$1", "get"),
				frame("org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager$1", "get"),
				frame("org.apache.hc.client5.http.impl.classic.InternalExecRuntime", "acquireEndpoint"),
				frame("com.example.Prices", "price") };
		assertThat(
				this.classifier.classify(pooled, Thread.State.TIMED_WAITING, "java.lang.Object@1", null, "users:8080")
					.target())
			.isEqualTo("users:8080 (Apache HttpClient 5, waiting for one of its pooled connections)");
	}

	private static StackTraceElement frame(String type, String method) {
		return new StackTraceElement(type, method, "X.java", 1);
	}

	/**
	 * Waits, bounded, until the thread's wait is of the kind expected, and returns it.
	 * The destination, when given, is what the recorder would have noted.
	 */
	private Wait awaitWait(Thread thread, WaitKind kind, String destination) {
		AtomicReference<Wait> seen = new AtomicReference<>();
		await(thread.getName() + " waiting on " + kind).atMost(REACHES_ITS_WAIT).untilAsserted(() -> {
			seen.set(this.classifier.classify(thread, destination));
			assertThat(seen.get().kind()).as("%s", seen.get()).isEqualTo(kind);
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
