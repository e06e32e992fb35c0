package dev.safedefaults.check;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FindingsStoreTests {

	private static Finding failed(String subject, Severity severity) {
		// checks.failed is declared WARNING; an INFO needs an id declared INFO.
		String id = (severity == Severity.WARNING) ? CheckFindings.CHECKS_FAILED.id() : "config-cache.mutable-type";
		return new Finding(id, severity, subject, "message", "fix");
	}

	@Test
	void aResultComputedBeforeTheOnePublishedNeverReplacesIt() {
		FindingsStore store = new FindingsStore(List.of());
		long older = store.nextGeneration();
		long newer = store.nextGeneration();
		assertThat(store.publish("check", newer, List.of(failed("newer", Severity.WARNING))))
			.extracting(Finding::subject)
			.containsExactly("newer");
		assertThat(store.publish("check", older, List.of(failed("older", Severity.WARNING)))).isEmpty();
		assertThat(store.findings()).extracting(Finding::subject).containsExactly("newer");
		// A clear is a newer, empty result: an older one cannot bring findings back.
		store.clear("check");
		assertThat(store.publish("check", newer, List.of(failed("stale", Severity.WARNING)))).isEmpty();
		assertThat(store.findings()).isEmpty();
	}

	@Test
	void updateTakesTheGenerationBeforeTheComputationRuns() throws Exception {
		FindingsStore store = new FindingsStore(List.of());
		java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
		java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
		java.util.concurrent.CompletableFuture<List<Finding>> slow = java.util.concurrent.CompletableFuture
			.supplyAsync(() -> store.update("check", () -> {
				started.countDown();
				try {
					release.await(10, java.util.concurrent.TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return List.of(failed("slow-older", Severity.WARNING));
			}));
		assertThat(started.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		store.update("check", () -> List.of(failed("fast-newer", Severity.WARNING)));
		release.countDown();
		assertThat(slow.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEmpty();
		assertThat(store.findings()).extracting(Finding::subject).containsExactly("fast-newer");
	}

	@Test
	void aFindingRaisedWithAnotherSeverityThanDeclaredIsRefused() {
		FindingsStore store = new FindingsStore(List.of());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> store.publish("a",
					List.of(new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.INFO, "s", "m", "f"))))
			.withMessageContaining("declared WARNING");
	}

	@Test
	void aSourceReplacesItsOwnFindingsAndLeavesOthersAlone() {
		FindingsStore store = new FindingsStore(List.of());
		store.publish("a", List.of(failed("a1", Severity.WARNING), failed("a2", Severity.INFO)));
		store.publish("b", List.of(failed("b1", Severity.WARNING)));
		store.publish("a", List.of(failed("a3", Severity.INFO)));
		assertThat(store.findings()).extracting(Finding::subject).containsExactly("b1", "a3");
		assertThat(store.count(Severity.WARNING)).isEqualTo(1);
		assertThat(store.count(Severity.INFO)).isEqualTo(1);
		store.publish("b", List.of());
		assertThat(store.findings()).extracting(Finding::subject).containsExactly("a3");
		store.clear("a");
		assertThat(store.findings()).isEmpty();
	}

	@Test
	void silencedIdsNeverEnter() {
		FindingsStore store = new FindingsStore(List.of(CheckFindings.CHECKS_FAILED.id()));
		assertThat(store.publish("a", List.of(failed("a1", Severity.WARNING)))).isEmpty();
		assertThat(store.findings()).isEmpty();
		assertThat(store.isSilenced(CheckFindings.CHECKS_FAILED.id())).isTrue();
	}

	@Test
	void anIdMissingFromTheCatalogueIsRefused() {
		FindingsStore store = new FindingsStore(List.of());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> store.publish("a", List.of(new Finding("no.such-id", Severity.WARNING, "s", "m", "f"))))
			.withMessageContaining("no.such-id");
	}

}
