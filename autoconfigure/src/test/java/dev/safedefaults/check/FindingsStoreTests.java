package dev.safedefaults.check;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FindingsStoreTests {

	private static Finding failed(String subject, Severity severity) {
		return new Finding(FindingCatalogue.CHECKS_FAILED, severity, subject, "message", "fix");
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
		FindingsStore store = new FindingsStore(List.of(FindingCatalogue.CHECKS_FAILED));
		assertThat(store.publish("a", List.of(failed("a1", Severity.WARNING)))).isEmpty();
		assertThat(store.findings()).isEmpty();
		assertThat(store.isSilenced(FindingCatalogue.CHECKS_FAILED)).isTrue();
	}

	@Test
	void anIdMissingFromTheCatalogueIsRefused() {
		FindingsStore store = new FindingsStore(List.of());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> store.publish("a", List.of(Finding.warning("no.such-id", "s", "m", "f"))))
			.withMessageContaining("no.such-id");
	}

}
