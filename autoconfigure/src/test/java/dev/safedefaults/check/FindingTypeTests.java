package dev.safedefaults.check;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The one declaration of a finding: what it raises carries the id and severity declared,
 * with its message and fix filled from the same arguments; a variant is the same finding
 * told for another way it arises; an id that is not dotted lower case (the form
 * {@code safe-defaults.checks.disabled} and the catalogue take) is refused when declared.
 */
class FindingTypeTests {

	private static final FindingType TOO_FEW = FindingType.declare("demo.too-few-connections", Severity.WARNING,
			"A pool has too few connections.", "Pool '%1$s' has %2$d connections for %3$d threads.",
			"Set spring.datasource.hikari.maximum-pool-size to at least %3$d for '%1$s'.");

	@Test
	void aRaisedFindingCarriesTheDeclaredIdAndSeverityWithItsMessageAndFixFilled() {
		Finding finding = TOO_FEW.raise("orders", "orders", 2, 40);
		assertThat(finding.id()).isEqualTo("demo.too-few-connections");
		assertThat(finding.severity()).isEqualTo(Severity.WARNING);
		assertThat(finding.subject()).isEqualTo("orders");
		assertThat(finding.message()).isEqualTo("Pool 'orders' has 2 connections for 40 threads.");
		assertThat(finding.fix())
			.isEqualTo("Set spring.datasource.hikari.maximum-pool-size to at least 40 for 'orders'.");
	}

	@Test
	void aVariantKeepsTheIdSeverityAndTitleAndSaysItsOwnMessageAndFix() {
		FindingType switchedOff = TOO_FEW.because("Pool '%1$s' keeps Hikari's %2$d connections: the starter is off.",
				"Remove safe-defaults.jdbc.enabled=false.");
		assertThat(switchedOff.id()).isEqualTo(TOO_FEW.id());
		assertThat(switchedOff.severity()).isEqualTo(TOO_FEW.severity());
		assertThat(switchedOff.title()).isEqualTo(TOO_FEW.title());
		Finding finding = switchedOff.raise("orders", "orders", 10);
		assertThat(finding.id()).isEqualTo("demo.too-few-connections");
		assertThat(finding.message()).isEqualTo("Pool 'orders' keeps Hikari's 10 connections: the starter is off.");
		assertThat(finding.fix()).isEqualTo("Remove safe-defaults.jdbc.enabled=false.");
		assertThat(TOO_FEW.raise("orders", "orders", 2, 40).message()).as("the type itself unchanged")
			.startsWith("Pool 'orders' has 2 connections");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "demo", "Demo.trap", "demo.Trap", "demo..trap", "demo.trap.", ".demo.trap",
			"demo.some_trap", "demo.-trap", "demo.trap-", "demo.some trap" })
	void anIdThatIsNotDottedLowerCaseIsRefused(String id) {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> FindingType.declare(id, Severity.INFO, "title", "message", "fix"))
			.withMessageContaining("'" + id + "'");
	}

	@Test
	void idsWithDigitsHyphensAndSeveralDotsAreAccepted() {
		assertThat(FindingType.declare("http-clients.no-timeout", Severity.WARNING, "t", "m", "f").id())
			.isEqualTo("http-clients.no-timeout");
		assertThat(FindingType.declare("logging.disruptor-4", Severity.WARNING, "t", "m", "f").id())
			.isEqualTo("logging.disruptor-4");
		assertThat(FindingType.declare("a.b2.c-3", Severity.INFO, "t", "m", "f").id()).isEqualTo("a.b2.c-3");
	}

}
