package dev.safedefaults.check.actuate;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.FailOn;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.CheckFindings;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.HostileInputs;
import dev.safedefaults.check.HostileInputs.Case;
import dev.safedefaults.check.SecretMasker;
import dev.safedefaults.check.Severity;
import dev.safedefaults.check.StartupCheckRunner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.support.StaticListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every hostile input, through everything that writes: the masker itself, a finding's
 * subject, message and fix, a check that fails with the input as its exception message
 * ({@code checks.failed}), a feature status; read back from the store, the log line, the
 * health details and the endpoint's report. No 3-character fragment of the secret may
 * survive anywhere, and no line break may reach a log line.
 */
class HostileInputTests {

	static Stream<Case> cases() {
		return HostileInputs.all();
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void noFragmentOfTheSecretSurvivesAnywhereTheStarterWrites(Case hostile) {
		if (hostile.url()) {
			HostileInputs.assertNoFragment(hostile, "maskJdbcUrl", SecretMasker.maskUrl(hostile.input()));
			HostileInputs.assertNoFragment(hostile, "maskProperty", SecretMasker.maskProperty("url", hostile.input()));
		}
		HostileInputs.assertNoFragment(hostile, "maskText", SecretMasker.maskText(hostile.input()));
		HostileInputs.assertNoFragment(hostile, "maskText in a sentence",
				SecretMasker.maskText("Pool orders failed for " + hostile.input() + " after 3 attempts"));

		FindingsStore store = new FindingsStore(List.of());
		store.publish("hostile", List.of(new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING,
				hostile.input(), "Seen on " + hostile.input() + ": bad.", "Change " + hostile.input())));
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("throwing", new ThrowingCheck(hostile.input()));
		beans.addBean("feature", (FeatureStatusReporter) () -> new FeatureStatus("hostile", true,
				List.of(hostile.input()), "left alone " + hostile.input()));
		StartupCheckRunner runner = new StartupCheckRunner(store, beans.getBeanProvider(Check.class),
				beans.getBeanProvider(FeatureStatusReporter.class), FailOn.NONE, Duration.ofSeconds(5), Thread::new);
		runner.start();
		runner.stop();
		assertThat(store.findings()).hasSize(2);

		for (Finding finding : store.findings()) {
			String logLine = finding.toLogLine();
			HostileInputs.assertNoFragment(hostile, "log line", logLine);
			assertThat(logLine).as("log line").doesNotContain("\n").doesNotContain("\r");
		}
		String health = new SafeDefaultsHealthIndicator(store).health().getDetails().toString();
		HostileInputs.assertNoFragment(hostile, "health details", health);
		String report = new SafeDefaultsEndpoint(store, beans.getBeanProvider(FeatureStatusReporter.class),
				beans.getBeanProvider(StartupCheckRunner.class))
			.report()
			.toString();
		HostileInputs.assertNoFragment(hostile, "endpoint report", report);
		assertThat(report).as("endpoint report").doesNotContain("\n");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("cases")
	void maskingIsStableWhenAppliedAgain(Case hostile) {
		String once = SecretMasker.maskText(hostile.input());
		assertThat(SecretMasker.maskText(once)).isEqualTo(once);
		if (hostile.url()) {
			String rendered = SecretMasker.maskUrl(hostile.input());
			assertThat(SecretMasker.maskUrl(rendered)).isEqualTo(rendered);
		}
	}

	/**
	 * A check that fails naming the hostile input. A named class, not a lambda: a
	 * lambda's name holds a hexadecimal address that differs from run to run, and once
	 * held "252", a fragment of a percent-encoded secret.
	 */
	private record ThrowingCheck(String input) implements Check {

		@Override
		public List<Finding> run() {
			throw new IllegalStateException("Could not open " + this.input);
		}

	}

}
