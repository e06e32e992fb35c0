package dev.safedefaults.logging.log4j2;

import java.beans.PropertyChangeEvent;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.logging.LoggingFindings;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two reconfigurations in quick succession: the re-check of the first reads the older
 * configuration, is held, and publishes after the re-check of the second. The store must
 * keep the newer result (issue 16.4). Deterministic: latches order the two runs.
 */
class Log4jCheckRerunnerTests {

	@Test
	void anOlderRecheckThatFinishesLastDoesNotReplaceTheNewerResult() throws Exception {
		CountDownLatch firstHasRead = new CountDownLatch(1);
		CountDownLatch secondHasPublished = new CountDownLatch(1);
		AtomicInteger runs = new AtomicInteger();
		// The first run sees the older configuration ("before"), the second the newer
		// one.
		Log4jConfigurationCheck check = new Log4jConfigurationCheck() {
			@Override
			public List<Finding> check(LoggerContext context) {
				if (runs.incrementAndGet() == 1) {
					List<Finding> older = List.of(LoggingFindings.FORMAT_MSG_ASYNC.raise("before"));
					firstHasRead.countDown();
					await(secondHasPublished);
					return older;
				}
				return List.of(LoggingFindings.FORMAT_MSG_ASYNC.raise("after"));
			}
		};
		FindingsStore store = new FindingsStore(List.of());
		LoggerContext context = new LoggerContext("rerunner-test");
		Log4jCheckRerunner rerunner = new Log4jCheckRerunner(context, check, store);
		try {
			PropertyChangeEvent reconfigured = new PropertyChangeEvent(context, LoggerContext.PROPERTY_CONFIG, null,
					null);
			CompletableFuture<Void> first = CompletableFuture.runAsync(() -> rerunner.propertyChange(reconfigured));
			assertThat(firstHasRead.await(10, TimeUnit.SECONDS)).isTrue();
			rerunner.propertyChange(reconfigured);
			assertThat(store.findings()).extracting(Finding::subject).containsExactly("after");
			secondHasPublished.countDown();
			first.get(10, TimeUnit.SECONDS);
			assertThat(store.findings()).extracting(Finding::subject).containsExactly("after");
		}
		finally {
			rerunner.destroy();
			context.stop();
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
