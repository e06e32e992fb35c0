package dev.safedefaults.stuckrequests.reactive;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.stuckrequests.JdbcPools;
import dev.safedefaults.stuckrequests.WaitClassifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The event-loop watch on a stand-in loop (a single-thread scheduled executor, the shape
 * of a Netty event loop): a task that sleeps on it is named within a second of the bound,
 * with the frame that sleeps, as one finding and one WARN line while it lasts, then one
 * INFO line and the finding cleared; a loop that keeps running its tasks raises nothing.
 * Covers {@code EventLoopHeartbeat} and {@code EventLoopFindings}.
 */
@Tag("reactive")
class EventLoopWatchTests {

	private static final Duration BOUND = Duration.ofMillis(500);

	private final ScheduledExecutorService loop = Executors
		.newSingleThreadScheduledExecutor((task) -> new Thread(task, "reactor-http-epoll-1"));

	private final FindingsStore store = new FindingsStore(List.of());

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private final List<String> infos = new CopyOnWriteArrayList<>();

	private final EventLoopWatch watch = new EventLoopWatch(() -> List.of(this.loop), BOUND, this.store,
			new WaitClassifier(JdbcPools.UNKNOWN), this.warnings::add, this.infos::add);

	@AfterEach
	void stop() {
		this.watch.stop();
		this.loop.shutdownNow();
	}

	@Test
	void aLoopBlockedBySleepIsNamedWithItsFrameWhileItLastsThenCleared() throws Exception {
		this.watch.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.watch.watched() == 1 && this.infos.isEmpty());
		CountDownLatch release = new CountDownLatch(1);
		long blockedAt = System.nanoTime();
		this.loop.execute(() -> blockingHandler(release));
		await("the blocked loop named").atMost(BOUND.plusSeconds(5)).until(() -> !this.store.findings().isEmpty());
		long namedAfter = Duration.ofNanos(System.nanoTime() - blockedAt).toMillis();
		Finding finding = this.store.findings().get(0);
		assertThat(finding.id()).isEqualTo("stuck-requests.event-loop-blocked");
		assertThat(finding.subject()).startsWith("reactor-http-epoll-1: sleep: Thread.sleep at ")
			.contains(EventLoopWatchTests.class.getName() + ".blockingHandler");
		assertThat(finding.message()).contains("The event loop reactor-http-epoll-1 has run none of its tasks for "
				+ "longer than 500ms: it is in sleep: Thread.sleep, at " + EventLoopWatchTests.class.getName()
				+ ".blockingHandler");
		assertThat(finding.fix()).contains("Schedulers.boundedElastic()");
		assertThat(this.watch.blockedEventLoops()).isEqualTo(1);
		assertThat(namedAfter).as("named after the bound").isGreaterThanOrEqualTo(BOUND.toMillis());
		Thread.sleep(3 * this.watch.heartbeatPeriod().toMillis());
		assertThat(this.warnings).singleElement()
			.satisfies((line) -> assertThat(line).startsWith("safe-defaults: stuck-requests.event-loop-blocked "
					+ "reactor-http-epoll-1: sleep: Thread.sleep at "));
		release.countDown();
		await("the finding cleared").atMost(Duration.ofSeconds(5)).until(() -> this.store.findings().isEmpty());
		assertThat(this.watch.blockedEventLoops()).isZero();
		assertThat(this.infos).singleElement()
			.satisfies((line) -> assertThat(line)
				.startsWith("safe-defaults: an event loop runs its tasks again: "
						+ "reactor-http-epoll-1: sleep: Thread.sleep at ")
				.contains(", blocked about "));
		assertThat(this.watch.describe()).contains("no event loop blocked now, 1 blocked since the start; last: ");
	}

	@Test
	void aLoopThatRunsItsTasksRaisesNothing() throws Exception {
		this.watch.start();
		for (int i = 0; i < 20; i++) {
			this.loop.execute(() -> sleepQuietly(BOUND.toMillis() / 5));
			Thread.sleep(BOUND.toMillis() / 5);
		}
		assertThat(this.store.findings()).isEmpty();
		assertThat(this.warnings).isEmpty();
		assertThat(this.watch.describe()).startsWith("no event loop blocked now, 0 blocked since the start");
	}

	@Test
	void theStackReadIsCutAtTheApplicationsFrameSoTheLoopsOwnFramesDoNotReadAsAClientsWait() {
		StackTraceElement[] frames = { frame("java.lang.Object", "wait"), frame("com.example.Orders", "load"),
				frame("reactor.netty.http.server.HttpServerOperations", "onInboundNext"),
				frame("io.netty.channel.nio.NioEventLoop", "run") };
		assertThat(EventLoopWatch.aboveTheLoop(frames)).extracting(StackTraceElement::getClassName)
			.containsExactly("java.lang.Object", "com.example.Orders");
		StackTraceElement[] noApplication = { frame("java.lang.Object", "wait"),
				frame("reactor.netty.channel.ChannelOperations", "onInboundNext"),
				frame("io.netty.channel.nio.NioEventLoop", "run") };
		assertThat(EventLoopWatch.aboveTheLoop(noApplication)).extracting(StackTraceElement::getClassName)
			.containsExactly("java.lang.Object");
	}

	@Test
	void theHeartbeatRunsAFewTimesPerBound() {
		assertThat(this.watch.heartbeatPeriod()).isEqualTo(Duration.ofMillis(50));
		EventLoopWatch defaultBound = new EventLoopWatch(List::of, Duration.ofSeconds(2), this.store,
				new WaitClassifier(JdbcPools.UNKNOWN));
		assertThat(defaultBound.heartbeatPeriod()).isEqualTo(Duration.ofMillis(200));
	}

	private static void blockingHandler(CountDownLatch release) {
		try {
			while (release.getCount() > 0) {
				Thread.sleep(50);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void sleepQuietly(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static StackTraceElement frame(String type, String method) {
		return new StackTraceElement(type, method, null, -1);
	}

}
