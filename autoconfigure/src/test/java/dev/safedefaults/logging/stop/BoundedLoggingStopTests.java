package dev.safedefaults.logging.stop;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import dev.safedefaults.testsupport.OnEveryJdk;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole stop keeps its bound: the watchdog started at the signal counts and halts
 * when the contexts are still closing at the deadline, and leaves a stop that ended in
 * time alone.
 */
@OnEveryJdk
class BoundedLoggingStopTests {

	private final List<String> calls = new CopyOnWriteArrayList<>();

	private final List<Integer> halts = new CopyOnWriteArrayList<>();

	@Test
	void contextsStillClosingAtTheDeadlineTheBacklogIsReportedThenTheJvmHalted() throws Exception {
		BoundedLoggingStop stop = new BoundedLoggingStop(() -> new RecordingDrain(null), Duration.ofMillis(50),
				this.halts::add);
		// Boot's handler never runs: the contexts are still closing (Tomcat waits for
		// request threads).
		stop.signalled(System.nanoTime()).join();
		assertThat(this.calls).containsExactly("reportBacklog");
		assertThat(this.halts).containsExactly(143);
		// When the contexts finally close, Boot's handler does nothing: the watchdog took
		// over.
		stop.run();
		assertThat(this.calls).containsExactly("reportBacklog");
	}

	@Test
	void aStopThatEndsInTimeDrainsUntilTheDeadlineFromTheSignalAndIsNotHalted() throws Exception {
		BoundedLoggingStop stop = new BoundedLoggingStop(() -> new RecordingDrain(null), Duration.ofMinutes(1),
				this.halts::add);
		long signal = System.nanoTime();
		Thread watchdog = stop.signalled(signal);
		stop.run();
		watchdog.join();
		// The line's half second is kept before phase + timeout.
		assertThat(this.calls).containsExactly(
				"drain until " + (signal + Duration.ofMinutes(1).minus(BoundedLoggingStop.LAST_LINE_GRACE).toNanos()));
		assertThat(this.halts).isEmpty();
	}

	@Test
	void aDrainStillRunningPastTheDeadlineAndItsGraceIsHalted() throws Exception {
		CountDownLatch never = new CountDownLatch(1);
		RecordingDrain drain = new RecordingDrain(never);
		BoundedLoggingStop stop = new BoundedLoggingStop(() -> drain, Duration.ofMillis(50), this.halts::add);
		Thread handler = new Thread(stop);
		handler.setDaemon(true);
		handler.start();
		// The contexts closed in time and Boot's handler is draining (stuck) when the
		// deadline comes.
		drain.draining.await();
		Thread watchdog = stop.signalled(System.nanoTime());
		watchdog.join();
		assertThat(this.halts).containsExactly(143);
		assertThat(this.calls).doesNotContain("reportBacklog");
		never.countDown();
	}

	private final class RecordingDrain implements BoundedLoggingStop.Drain {

		private final @Nullable CountDownLatch blocker;

		private final CountDownLatch draining = new CountDownLatch(1);

		RecordingDrain(@Nullable CountDownLatch blocker) {
			this.blocker = blocker;
		}

		@Override
		public void drain(long deadline) {
			BoundedLoggingStopTests.this.calls.add("drain until " + deadline);
			this.draining.countDown();
			if (this.blocker != null) {
				try {
					this.blocker.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

		@Override
		public void reportBacklog() {
			BoundedLoggingStopTests.this.calls.add("reportBacklog");
		}

	}

}
