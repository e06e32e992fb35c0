package dev.safedefaults.stuckrequests;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.stuckrequests.InFlightRequest.DeadlineOutcome;
import dev.safedefaults.testsupport.OnEveryJdk;
import dev.safedefaults.testsupport.SilentDownstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The deadline ({@code safe-defaults.stuck-requests.interrupt-after}) on real request
 * threads in real waits: a wait an interrupt ends (the JDK HttpClient under a RestClient
 * built by hand, a wait for a Hikari connection, {@code Object.wait},
 * {@code lockInterruptibly}, on a virtual thread a socket read) is interrupted once and
 * the request sees the library's own failure; one it cannot end ({@code synchronized},
 * {@code ReentrantLock.lock()}, a socket read on a platform thread) is left alone and
 * said to be. And, under load on pooled threads, an interrupt never outlives its request:
 * the thread's next request never sees it. Covers {@code LibraryFrames.interruptEnds},
 * the declared column of the table.
 */
@OnEveryJdk
class StuckRequestsDeadlineTests {

	private static final Duration REACHES_ITS_WAIT = Duration.ofSeconds(20);

	/** The HttpURLConnection's own bound: ends before the threads' join gives up. */
	private static final Duration READ_BOUND = Duration.ofSeconds(8);

	private final InFlightRequests requests = new InFlightRequests();

	private final FindingsStore store = new FindingsStore(Set.of());

	private final List<String> warnings = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private final List<AutoCloseable> toClose = new ArrayList<>();

	private final StuckRequestsWatch watch = new StuckRequestsWatch(this.requests, null, JdbcPools.UNKNOWN, this.store,
			() -> Duration.ofMillis(1), Duration.ofMillis(1), this.warnings::add);

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
	void aRestClientOnTheJdkHttpClientWaitingOnASilentDownstreamIsInterruptedAndFailsWithAnIoException()
			throws Exception {
		SilentDownstream silent = new SilentDownstream();
		this.toClose.add(silent);
		RestClient client = RestClient.builder().baseUrl(silent.url()).build();
		Request request = request("rest-client", () -> client.get().uri("/prices/1").retrieve().body(String.class));
		Throwable failure = request.awaitFailure(this.watch);
		assertThat(failure).isInstanceOf(ResourceAccessException.class)
			.cause()
			.hasMessageStartingWith("Request was interrupted");
		assertThat(request.interruptedAfterItEnded.get()).as("the interrupt cleared as the request ended").isFalse();
		assertThat(this.watch.interrupts()).containsEntry("http-response", 1L).containsEntry("lock", 0L);
		assertThat(this.warnings)
			.anySatisfy((line) -> assertThat(line).startsWith("safe-defaults: interrupted the thread of a request past "
					+ "safe-defaults.stuck-requests.interrupt-after (1ms) waiting on HTTP response: an unknown host "
					+ "(JDK HttpClient via RestClient) at " + StuckRequestsDeadlineTests.class.getName()));
		this.watch.look();
		assertThat(this.store.findings()).isEmpty();
		assertThat(this.watch.describe()).contains("freed by interrupting their thread past "
				+ "safe-defaults.stuck-requests.interrupt-after (1ms): 1 request waiting on HTTP response");
	}

	@Test
	void aWaitForAHikariConnectionIsInterruptedAndFailsWithAnSqlException() throws Exception {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:stuck-requests-deadline");
		config.setPoolName("DeadlinePool");
		config.setMaximumPoolSize(1);
		config.setConnectionTimeout(Duration.ofMinutes(2).toMillis());
		HikariDataSource pool = new HikariDataSource(config);
		this.toClose.add(pool);
		Connection taken = pool.getConnection();
		this.toClose.add(0, taken);
		Request request = request("pool-waiter", () -> {
			try (Connection connection = pool.getConnection()) {
				return connection;
			}
		});
		Throwable failure = request.awaitFailure(this.watch);
		assertThat(failure).isInstanceOf(SQLException.class)
			.hasMessage("DeadlinePool - Interrupted during connection acquisition");
		assertThat(request.interruptedAfterItEnded.get()).isFalse();
		assertThat(this.watch.interrupts()).containsEntry("pool-connection", 1L);
	}

	@Test
	void objectWaitAndLockInterruptiblyAreInterrupted() throws Exception {
		Object monitor = new Object();
		Request waiting = request("object-wait", () -> {
			synchronized (monitor) {
				monitor.wait();
			}
			return null;
		});
		assertThat(waiting.awaitFailure(this.watch)).isInstanceOf(InterruptedException.class);
		ReentrantLock lock = heldByAnotherThread();
		Request locking = request("lock-interruptibly", () -> {
			lock.lockInterruptibly();
			return null;
		});
		assertThat(locking.awaitFailure(this.watch)).isInstanceOf(InterruptedException.class);
		assertThat(this.watch.interrupts()).containsEntry("lock", 2L);
	}

	@Test
	void reentrantLockLockIsLeftAloneAndSaidToBeOnceWithWhatToDo() throws Exception {
		ReentrantLock lock = heldByAnotherThread();
		Request request = request("lock", () -> {
			lock.lock();
			lock.unlock();
			return null;
		});
		InFlightRequest inFlight = request.awaitOutcome(this.watch, DeadlineOutcome.CANNOT_END);
		assertThat(inFlight.waitingOn().kind()).isEqualTo(WaitKind.LOCK);
		this.watch.look();
		assertThat(request.thread.isInterrupted()).isFalse();
		assertThat(this.watch.interrupts().values()).containsOnly(0L);
		Finding finding = this.store.findings().get(0);
		assertThat(finding.message()).contains("1 of them is past safe-defaults.stuck-requests.interrupt-after (1ms) "
				+ "in this wait, which an interrupt cannot end: wait for the lock with lockInterruptibly or tryLock");
		assertThat(this.warnings).filteredOn((line) -> line.startsWith("safe-defaults: a request past"))
			.singleElement()
			.asString()
			.contains("waits on lock: java.util.concurrent.locks.ReentrantLock");
	}

	@Test
	void aSynchronizedEntryIsLeftAlone() throws Exception {
		Object monitor = new Object();
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		start("holder", () -> {
			synchronized (monitor) {
				held.countDown();
				release.await();
			}
		});
		this.toClose.add(release::countDown);
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		Request request = request("synchronized", () -> {
			synchronized (monitor) {
				return null;
			}
		});
		request.awaitOutcome(this.watch, DeadlineOutcome.CANNOT_END);
		assertThat(request.thread.isInterrupted()).isFalse();
	}

	@Test
	void anHttpUrlConnectionsSocketReadOnAPlatformThreadIsLeftAlone() throws Exception {
		SilentDownstream silent = new SilentDownstream();
		this.toClose.add(silent);
		Request request = request("url-connection", () -> {
			HttpURLConnection connection = (HttpURLConnection) URI.create(silent.url() + "/x").toURL().openConnection();
			// Bounded, so that the thread ends even if closing the downstream does not
			// reach its read (seen once on JDK 25 in CI); long past the watch's look.
			connection.setReadTimeout((int) READ_BOUND.toMillis());
			connection.setConnectTimeout((int) READ_BOUND.toMillis());
			this.toClose.add(connection::disconnect);
			return connection.getResponseCode();
		});
		InFlightRequest inFlight = request.awaitOutcome(this.watch, DeadlineOutcome.CANNOT_END);
		assertThat(inFlight.waitingOn().target()).endsWith("(HttpURLConnection)");
		assertThat(request.thread.isInterrupted()).isFalse();
		assertThat(this.watch.interrupts().values()).containsOnly(0L);
	}

	/**
	 * On a virtual thread (JDK 21 or later; skipped on 17, run in the JDK 25 execution) a
	 * blocking socket read ends on an interrupt: the socket is closed.
	 */
	@Test
	void aSocketReadOnAVirtualThreadIsInterruptedAndFailsWithASocketException() throws Exception {
		assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
		SilentDownstream silent = new SilentDownstream();
		this.toClose.add(silent);
		Request request = new Request(() -> readFrom(silent));
		Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
		Class<?> builderType = Class.forName("java.lang.Thread$Builder");
		request.thread = (Thread) builderType.getMethod("unstarted", Runnable.class).invoke(builder, request);
		request.thread.start();
		this.threads.add(request.thread);
		assertThat(request.awaitFailure(this.watch)).isInstanceOf(java.net.SocketException.class)
			.hasMessage("Closed by interrupt");
		assertThat(this.watch.interrupts()).containsEntry("other", 1L);
	}

	/**
	 * Eight requests at a time on four pooled threads, thousands one after another, each
	 * sleeping a random moment (a wait an interrupt ends) and setting its interrupt again
	 * when it catches one, as the HTTP clients and Hikari do; the watch looks at them
	 * without pause with a deadline of 1ms. No request may begin on a thread whose
	 * interrupt is set, nor end with it set once it left.
	 */
	@Test
	void underLoadAnInterruptNeverOutlivesItsRequest() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(4);
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicInteger begunInterrupted = new AtomicInteger();
		AtomicInteger leftInterrupted = new AtomicInteger();
		AtomicInteger caught = new AtomicInteger();
		Thread watcher = start("watcher", () -> {
			while (running.get()) {
				this.watch.look();
			}
		});
		List<Future<?>> workers = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			workers.add(pool.submit(() -> {
				for (int n = 0; n < 500; n++) {
					if (Thread.currentThread().isInterrupted()) {
						begunInterrupted.incrementAndGet();
						Thread.interrupted();
					}
					InFlightRequest request = this.requests.began("GET");
					try {
						Thread.sleep(ThreadLocalRandom.current().nextInt(3));
					}
					catch (InterruptedException ex) {
						caught.incrementAndGet();
						Thread.currentThread().interrupt();
					}
					finally {
						this.requests.ended(request);
					}
					if (Thread.currentThread().isInterrupted()) {
						leftInterrupted.incrementAndGet();
					}
				}
			}));
		}
		try {
			for (Future<?> worker : workers) {
				worker.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			running.set(false);
			pool.shutdownNow();
			watcher.join(TimeUnit.SECONDS.toMillis(10));
		}
		assertThat(caught.get()).as("requests interrupted in their sleep").isPositive();
		assertThat(this.watch.interrupts().get("sleep")).isGreaterThanOrEqualTo(caught.get());
		assertThat(begunInterrupted.get()).as("requests that began on an interrupted thread").isZero();
		assertThat(leftInterrupted.get()).as("requests that left their thread interrupted").isZero();
	}

	private static Object readFrom(SilentDownstream silent) throws Exception {
		URI uri = URI.create(silent.url());
		try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
			InputStream in = socket.getInputStream();
			return in.read();
		}
	}

	private ReentrantLock heldByAnotherThread() throws Exception {
		ReentrantLock lock = new ReentrantLock();
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		start("lock-holder", () -> {
			lock.lock();
			try {
				held.countDown();
				release.await();
			}
			finally {
				lock.unlock();
			}
		});
		this.toClose.add(release::countDown);
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		return lock;
	}

	private Thread start(String name, Work work) {
		Thread thread = new Thread(() -> {
			try {
				work.run();
			}
			catch (Exception ex) {
				// Freed at the end of the test.
			}
		}, name);
		thread.setDaemon(true);
		thread.start();
		this.threads.add(thread);
		return thread;
	}

	private Request request(String name, Call call) {
		Request request = new Request(call);
		request.thread = new Thread(request, name);
		request.thread.setDaemon(true);
		request.thread.start();
		this.threads.add(request.thread);
		return request;
	}

	interface Work {

		void run() throws Exception;

	}

	interface Call {

		Object call() throws Exception;

	}

	/** One request on its own thread, as the servlet filter runs it. */
	private final class Request implements Runnable {

		private final Call call;

		private final AtomicReference<Throwable> failure = new AtomicReference<>();

		private final AtomicReference<InFlightRequest> inFlight = new AtomicReference<>();

		private final AtomicBoolean interruptedAfterItEnded = new AtomicBoolean();

		private final CountDownLatch ended = new CountDownLatch(1);

		private Thread thread;

		Request(Call call) {
			this.call = call;
		}

		@Override
		public void run() {
			InFlightRequest request = StuckRequestsDeadlineTests.this.requests.began("GET");
			this.inFlight.set(request);
			try {
				this.call.call();
			}
			catch (Throwable ex) {
				this.failure.set(ex);
			}
			finally {
				StuckRequestsDeadlineTests.this.requests.ended(request);
				this.interruptedAfterItEnded.set(Thread.currentThread().isInterrupted());
				this.ended.countDown();
			}
		}

		Throwable awaitFailure(StuckRequestsWatch watch) throws InterruptedException {
			await(this.thread.getName() + " interrupted and ended").atMost(REACHES_ITS_WAIT).until(() -> {
				watch.look();
				return this.ended.getCount() == 0;
			});
			return this.failure.get();
		}

		InFlightRequest awaitOutcome(StuckRequestsWatch watch, DeadlineOutcome outcome) {
			await(this.thread.getName() + " " + outcome).atMost(REACHES_ITS_WAIT).until(() -> {
				InFlightRequest request = this.inFlight.get();
				if (request == null) {
					return false;
				}
				// A request examined before it reached its wait is examined again.
				if (request.deadline() != outcome) {
					watch.look();
				}
				return request.deadline() == outcome;
			});
			return this.inFlight.get();
		}

	}

}
