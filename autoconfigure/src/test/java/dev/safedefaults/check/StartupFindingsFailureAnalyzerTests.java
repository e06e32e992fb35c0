package dev.safedefaults.check;

import java.util.List;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Boot prints for a start that {@code safe-defaults.checks.fail-on=warning} stopped:
 * the analyzer the starter lists in {@code spring.factories} names each finding and the
 * three ways out; a failure of another kind is left to Boot's own analyzers.
 */
class StartupFindingsFailureAnalyzerTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class))
		.withPropertyValues("safe-defaults.checks.fail-on=warning")
		.withBean("poolCheck", Check.class, () -> () -> List.of(new Finding(CheckFindings.CHECKS_FAILED.id(),
				Severity.WARNING, "orders pool", "the pool is too small", "grow it")));

	@Test
	void aStartStoppedByAWarningIsExplainedWithEachFindingAndTheWaysOut() {
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analyze(context.getStartupFailure());
			assertThat(analysis).as("the analysis Boot prints").isNotNull();
			assertThat(analysis.getCause()).isInstanceOf(StartupFindingsException.class);
			assertThat(analysis.getDescription())
				.startsWith("safe-defaults.checks.fail-on is 'warning' and the startup checks raised these findings:")
				.endsWith("\n  - checks.failed orders pool: the pool is too small — grow it");
			assertThat(analysis.getAction()).contains("Fix what each finding names",
					"safe-defaults.checks.disabled=<id>", "safe-defaults.checks.fail-on=none");
		});
	}

	@Test
	void aFailureOfAnotherKindIsNotClaimed() {
		assertThat(new StartupFindingsFailureAnalyzer().analyze(new IllegalStateException("boom"))).isNull();
	}

	/**
	 * What {@code SpringApplication} reports for a failed start: the first analysis of
	 * the failure analyzers registered in {@code spring.factories}, in their order.
	 */
	private static @Nullable FailureAnalysis analyze(Throwable failure) {
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, new StandardEnvironment());
		for (FailureAnalyzer analyzer : SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, arguments,
					FailureHandler.logging(LogFactory.getLog(StartupFindingsFailureAnalyzerTests.class)))) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

}
