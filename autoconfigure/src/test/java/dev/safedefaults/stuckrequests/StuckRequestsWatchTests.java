package dev.safedefaults.stuckrequests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.testsupport.OnEveryJdk;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.HandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

/**
 * One look after another, on real request threads: each request past the threshold is
 * examined once, each new wait is logged once (the same wait from another site is a new
 * one), the findings follow the requests, the healthy ones are never examined, and a
 * silenced id leaves the log and the store alone. The endpoint is what the request's own
 * thread noted ({@code InFlightRequests.handlerChosen}, as {@code EndpointRecorder} calls
 * it).
 */
@OnEveryJdk
class StuckRequestsWatchTests {

	private final InFlightRequests requests = new InFlightRequests();

	private final List<String> warnings = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	@Test
	void eachNewWaitIsLoggedOnceTheFindingCountsTheRequestsAndIsClearedWhenTheyEnd() throws Exception {
		FindingsStore store = new FindingsStore(Set.of());
		StuckRequestsWatch watch = watch(store, Duration.ofMillis(1));
		CountDownLatch release = new CountDownLatch(1);
		sleepingRequest(release);
		await("first request examined").atMost(Duration.ofSeconds(10)).until(() -> {
			watch.look();
			return watch.stuck() == 1 && watch.examined() == 1 && store.findings().size() == 1
					&& store.findings().get(0).subject().startsWith("sleep");
		});
		sleepingRequest(release);
		await("second request examined").atMost(Duration.ofSeconds(10)).until(() -> {
			watch.look();
			return watch.stuck() == 2 && watch.examined() == 2 && store.findings().get(0).message().startsWith("2 ");
		});
		Finding finding = store.findings().get(0);
		assertThat(finding.subject()).startsWith("sleep: Thread.sleep at " + StuckRequestsWatchTests.class.getName());
		assertThat(finding.message()).startsWith("2 requests running longer than 1ms wait in a sleep: Thread.sleep, at "
				+ StuckRequestsWatchTests.class.getName());
		assertThat(finding.message()).contains("(GET /orders/{id})");
		watch.look();
		assertThat(watch.examined()).as("each request examined once").isEqualTo(2);
		assertThat(this.warnings).as("WARN lines").hasSize(1);
		assertThat(this.warnings.get(0))
			.startsWith("safe-defaults: stuck-requests.waiting sleep: Thread.sleep at "
					+ StuckRequestsWatchTests.class.getName())
			.contains(": 1 request running longer than 1ms waits in a sleep");
		release.countDown();
		joinAll();
		watch.look();
		assertThat(store.findings()).isEmpty();
		assertThat(watch.stuck()).isZero();
		assertThat(watch.describe()).startsWith("no request past the threshold now; last: 2 requests at most");
	}

	@Test
	void theSameWaitFromASecondSiteIsLoggedAsANewWait() throws Exception {
		FindingsStore store = new FindingsStore(Set.of());
		StuckRequestsWatch watch = watch(store, Duration.ofMillis(1));
		CountDownLatch release = new CountDownLatch(1);
		sleepingRequest(release);
		otherSiteSleepingRequest(release);
		await("both requests examined").atMost(Duration.ofSeconds(10)).until(() -> {
			watch.look();
			return watch.examined() == 2 && store.findings().size() == 2;
		});
		assertThat(store.findings()).extracting(Finding::subject).doesNotHaveDuplicates();
		assertThat(this.warnings).as("one WARN line per site").hasSize(2);
		assertThat(this.warnings).anySatisfy((line) -> assertThat(line).contains("sleepingRequest"))
			.anySatisfy((line) -> assertThat(line).contains("otherSiteSleepingRequest"));
		release.countDown();
		joinAll();
		watch.look();
		assertThat(watch.describe()).startsWith("no request past the threshold now; last: 2 requests at most");
	}

	/**
	 * A request on a virtual thread (JDK 21 or later; on JDK 17 this test is skipped, and
	 * runs in the build's JDK 25 execution): the thread dump its finding names is one
	 * that lists virtual threads.
	 */
	@Test
	void aRequestOnAVirtualThreadIsToldTheThreadDumpThatListsVirtualThreads() throws Exception {
		assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
		FindingsStore store = new FindingsStore(Set.of());
		StuckRequestsWatch watch = watch(store, Duration.ofMillis(1));
		CountDownLatch release = new CountDownLatch(1);
		Runnable waitingRequest = () -> {
			InFlightRequest request = this.requests.began("GET");
			try {
				release.await(1, TimeUnit.MINUTES);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				if (request != null) {
					this.requests.ended(request);
				}
			}
		};
		Thread thread = startVirtual("request-0", waitingRequest);
		assertThat(WaitGroup.isVirtual(thread)).isTrue();
		await("request examined").atMost(Duration.ofSeconds(10)).until(() -> {
			watch.look();
			return watch.examined() == 1 && store.findings().size() == 1;
		});
		Finding finding = store.findings().get(0);
		// The latch's park is named as the thread bean names a platform thread's.
		assertThat(finding.subject()).startsWith("lock: java.util.concurrent.CountDownLatch$Sync, "
				+ "its holder not known on a virtual thread at " + StuckRequestsWatchTests.class.getName());
		assertThat(finding.fix()).contains("jcmd <pid> Thread.dump_to_file -format=json <file>")
			.doesNotContain("shows the whole stack: jcmd <pid> Thread.print");
		release.countDown();
		joinAll();
	}

	/**
	 * Issue 50: requests on virtual threads (JDK 21 or later; skipped on 17, run in the
	 * JDK 25 execution), one holding a monitor and a {@code ReentrantLock} while it
	 * sleeps, two others waiting for them: each waiter is a lock wait, the monitor named
	 * as one and the lock by its class, and the finding says why no holder is named.
	 */
	@Test
	void aRequestOnAVirtualThreadWaitingForALockHeldByAnotherRequestIsALockWaitThatSaysWhyNoHolderIsNamed()
			throws Exception {
		assumeTrue(Runtime.version().feature() >= 21, "virtual threads need JDK 21 or later");
		FindingsStore store = new FindingsStore(Set.of());
		StuckRequestsWatch watch = watch(store, Duration.ofMillis(1));
		CountDownLatch release = new CountDownLatch(1);
		Object monitor = new Object();
		ReentrantLock lock = new ReentrantLock();
		CountDownLatch held = new CountDownLatch(1);
		startVirtual("holder", () -> inRequest("/holder", () -> {
			lock.lock();
			try {
				synchronized (monitor) {
					held.countDown();
					while (!release.await(1, TimeUnit.MILLISECONDS)) {
						Thread.sleep(TimeUnit.SECONDS.toMillis(1));
					}
				}
			}
			finally {
				lock.unlock();
			}
		}));
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		startVirtual("monitor-waiter", () -> inRequest("/monitor", () -> {
			synchronized (monitor) {
				release.countDown();
			}
		}));
		startVirtual("lock-waiter", () -> inRequest("/lock", () -> {
			lock.lock();
			lock.unlock();
		}));
		await("the three requests examined").atMost(Duration.ofSeconds(10)).until(() -> {
			watch.look();
			return watch.examined() == 3 && store.findings().size() == 3;
		});
		assertThat(store.findings()).extracting(Finding::subject)
			.anySatisfy((subject) -> assertThat(subject).startsWith("sleep: Thread.sleep at "))
			.anySatisfy((subject) -> assertThat(subject)
				.startsWith("lock: a monitor (synchronized) the JVM does not name for a virtual thread, its holder not "
						+ "known on a virtual thread at " + StuckRequestsWatchTests.class.getName() + ".lambda$"))
			.anySatisfy((subject) -> assertThat(subject)
				.startsWith("lock: java.util.concurrent.locks.ReentrantLock$NonfairSync, its holder not known on a "
						+ "virtual thread at " + StuckRequestsWatchTests.class.getName() + ".lambda$"));
		assertThat(store.findings()).filteredOn((finding) -> finding.subject().startsWith("lock: "))
			.hasSize(2)
			.allSatisfy((finding) -> assertThat(finding.message())
				.contains("its holder is not named: the JVM's thread bean gives no lock information for virtual "
						+ "threads")
				.containsAnyOf("(GET /monitor)", "(GET /lock)"));
		release.countDown();
		joinAll();
	}

	@Test
	void aRequestThatEndsInTimeIsNeverExamined() throws Exception {
		FindingsStore store = new FindingsStore(Set.of());
		StuckRequestsWatch watch = watch(store, Duration.ofMinutes(1));
		CountDownLatch release = new CountDownLatch(1);
		sleepingRequest(release);
		await("request in flight").atMost(Duration.ofSeconds(10)).until(() -> this.requests.size() == 1);
		watch.look();
		release.countDown();
		joinAll();
		watch.look();
		assertThat(watch.examined()).isZero();
		assertThat(store.findings()).isEmpty();
		assertThat(this.warnings).isEmpty();
	}

	@Test
	void aSilencedIdIsNeitherPublishedNorLogged() throws Exception {
		FindingsStore store = new FindingsStore(Set.of("stuck-requests.waiting"));
		StuckRequestsWatch watch = watch(store, Duration.ofMillis(1));
		CountDownLatch release = new CountDownLatch(1);
		sleepingRequest(release);
		await("request examined").atMost(Duration.ofSeconds(10)).until(() -> {
			watch.look();
			return watch.examined() == 1;
		});
		release.countDown();
		joinAll();
		assertThat(store.findings()).isEmpty();
		assertThat(this.warnings).isEmpty();
	}

	private StuckRequestsWatch watch(FindingsStore store, Duration threshold) {
		return new StuckRequestsWatch(this.requests, null, JdbcPools.UNKNOWN, store, () -> threshold,
				this.warnings::add);
	}

	private void sleepingRequest(CountDownLatch release) {
		Thread thread = new Thread(() -> {
			InFlightRequest request = this.requests.began("GET");
			this.requests.handlerChosen("/orders/{id}");
			try {
				while (!release.await(1, TimeUnit.MILLISECONDS)) {
					Thread.sleep(TimeUnit.SECONDS.toMillis(1));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				if (request != null) {
					this.requests.ended(request);
				}
			}
		}, "request-" + this.threads.size());
		thread.setDaemon(true);
		thread.start();
		this.threads.add(thread);
	}

	private void otherSiteSleepingRequest(CountDownLatch release) {
		Thread thread = new Thread(() -> {
			InFlightRequest request = this.requests.began("GET");
			try {
				// The same wait as sleepingRequest's, from another line of code.
				while (!release.await(1, TimeUnit.MILLISECONDS)) {
					Thread.sleep(TimeUnit.SECONDS.toMillis(1));
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				if (request != null) {
					this.requests.ended(request);
				}
			}
		}, "request-" + this.threads.size());
		thread.setDaemon(true);
		thread.start();
		this.threads.add(thread);
	}

	private void inRequest(String pattern, ThrowingRunnable work) {
		InFlightRequest request = this.requests.began("GET");
		this.requests.handlerChosen(pattern);
		try {
			work.run();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			if (request != null) {
				this.requests.ended(request);
			}
		}
	}

	/** {@code Thread.ofVirtual()} is JDK 21 API; the tests compile for 17. */
	private Thread startVirtual(String name, Runnable work) throws ReflectiveOperationException {
		Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
		Class<?> builderType = Class.forName("java.lang.Thread$Builder");
		builder = builderType.getMethod("name", String.class).invoke(builder, name);
		Thread thread = (Thread) builderType.getMethod("unstarted", Runnable.class).invoke(builder, work);
		thread.start();
		this.threads.add(thread);
		return thread;
	}

	interface ThrowingRunnable {

		void run() throws InterruptedException;

	}

	private void joinAll() throws InterruptedException {
		for (Thread thread : this.threads) {
			thread.interrupt();
			thread.join(TimeUnit.SECONDS.toMillis(10));
			assertThat(thread.isAlive()).isFalse();
		}
	}

	/** A request Spring MVC has chosen a handler for. */
	static MockHttpServletRequest ordersRequest() {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/orders/1");
		request.setAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, "/orders/{id}");
		return request;
	}

}
