package dev.safedefaults;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.CheckFindings;
import dev.safedefaults.check.CheckRun;
import dev.safedefaults.check.FeatureStatus;
import dev.safedefaults.check.FeatureStatusReporter;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.check.StartupCheckRunner;
import dev.safedefaults.check.StartupFindingsException;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The findings store and the check runner: checks run once at startup, deferred ones off
 * the startup path, their findings stored, silenced or failing the start as the
 * application says. Covers {@code SafeDefaultsProperties} (the ids it silences, fail-on
 * and the deferred checks' timeout, each refused at startup when invalid) and
 * {@code ConditionalOnSafeDefaultsEnabled} (the master switch off leaves no store, no
 * runner and no check run).
 */
class SafeDefaultsAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SafeDefaultsAutoConfiguration.class));

	@Test
	void findingsStoreAndCheckRunnerByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(FindingsStore.class).hasSingleBean(StartupCheckRunner.class);
			assertThat(context.getBean(StartupCheckRunner.class).isRunning()).isTrue();
		});
	}

	@Test
	void masterSwitchOffRemovesEverything() {
		this.runner.withPropertyValues("safe-defaults.enabled=false")
			.withUserConfiguration(WarningCheckConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(FindingsStore.class)
					.doesNotHaveBean(StartupCheckRunner.class);
				assertThat(context.getBean(WarningCheckConfiguration.class).runs).isZero();
			});
	}

	@Test
	void checksOffKeepsTheStoreButRunsNoCheck() {
		this.runner.withPropertyValues("safe-defaults.checks.enabled=false")
			.withUserConfiguration(WarningCheckConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(FindingsStore.class).doesNotHaveBean(StartupCheckRunner.class);
				assertThat(context.getBean(WarningCheckConfiguration.class).runs).isZero();
				assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			});
	}

	@Test
	void checksRunOnceAtRefreshAndTheirFindingsAreStored() {
		this.runner.withUserConfiguration(WarningCheckConfiguration.class).run((context) -> {
			assertThat(context.getBean(WarningCheckConfiguration.class).runs).isEqualTo(1);
			assertThat(context.getBean(FindingsStore.class).findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(CheckFindings.CHECKS_FAILED.id());
				assertThat(finding.subject()).isEqualTo("warning-check");
			});
		});
	}

	@Test
	void aCheckThatThrowsBecomesAFindingAndStartupGoesOn() {
		this.runner.withUserConfiguration(ThrowingCheckConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(FindingsStore.class).findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(CheckFindings.CHECKS_FAILED.id());
				assertThat(finding.severity()).isEqualTo(Severity.WARNING);
				assertThat(finding.subject()).isEqualTo("throwing-check");
				assertThat(finding.message()).contains("IllegalStateException", "boom");
			});
		});
	}

	@Test
	void aSilencedIdIsNotReported() {
		this.runner.withPropertyValues("safe-defaults.checks.disabled=checks.failed")
			.withUserConfiguration(ThrowingCheckConfiguration.class)
			.run((context) -> assertThat(context.getBean(FindingsStore.class).findings()).isEmpty());
	}

	@Test
	void failOnWarningFailsStartupListingTheFindings() {
		this.runner.withPropertyValues("safe-defaults.checks.fail-on=warning")
			.withUserConfiguration(WarningCheckConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(StartupFindingsException.class)
					.hasMessageContaining("safe-defaults.checks.fail-on=warning")
					.hasMessageContaining("checks.failed warning-check: a warning");
			});
	}

	@Test
	void failOnWarningIgnoresInfos() {
		this.runner.withPropertyValues("safe-defaults.checks.fail-on=warning")
			.withUserConfiguration(InfoCheckConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(FindingsStore.class).count(Severity.INFO)).isEqualTo(1);
			});
	}

	@Test
	void failOnWarningIgnoresSilencedWarnings() {
		this.runner
			.withPropertyValues("safe-defaults.checks.fail-on=warning", "safe-defaults.checks.disabled=checks.failed")
			.withUserConfiguration(WarningCheckConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(WarningCheckConfiguration.class).runs).as("the check ran").isEqualTo(1);
				FindingsStore store = context.getBean(FindingsStore.class);
				assertThat(store.isSilenced(CheckFindings.CHECKS_FAILED.id())).isTrue();
				assertThat(store.findings()).as("the silenced warning").isEmpty();
				assertThat(store.count(Severity.WARNING)).isZero();
			});
	}

	@Test
	void failOnNoneIsTheDefault() {
		this.runner.withUserConfiguration(WarningCheckConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(WarningCheckConfiguration.class).runs).as("the check ran").isEqualTo(1);
			assertThat(context.getBean(FindingsStore.class).count(Severity.WARNING))
				.as("the warning is kept, and did not stop the start")
				.isEqualTo(1);
		});
	}

	@Test
	void anUnknownIdInDisabledFailsStartupNamingPropertyValueAndAllowedIds() {
		this.runner.withPropertyValues("safe-defaults.checks.disabled=checks.failed,jdbc.no-such-check")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
						assertThat(ex.getName()).isEqualTo("safe-defaults.checks.disabled");
						assertThat(ex.getValue()).isEqualTo("jdbc.no-such-check");
						assertThat(ex.getReason()).contains("Allowed", CheckFindings.CHECKS_FAILED.id(),
								"the findings catalogue in docs/findings.md");
					});
			});
	}

	@Test
	void anUnknownFailOnFailsStartupNamingTheProperty() {
		this.runner.withPropertyValues("safe-defaults.checks.fail-on=sometimes").run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof BindException)) {
				failure = failure.getCause();
			}
			assertThat(failure).isInstanceOf(BindException.class).hasMessageContaining("safe-defaults.checks.fail-on");
			assertThat(failure.getCause()).hasMessageContaining("sometimes");
		});
	}

	@Test
	void aNonPositiveDeferredTimeoutFailsStartup() {
		this.runner.withPropertyValues("safe-defaults.checks.deferred-timeout=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
						(ex) -> assertThat(ex.getName()).isEqualTo("safe-defaults.checks.deferred-timeout"));
		});
	}

	@Test
	void aDeferredCheckRunsOffTheStartupPathAndPublishesWhenDone() {
		this.runner.withUserConfiguration(DeferredCheckConfiguration.class).run((context) -> {
			DeferredCheckConfiguration config = context.getBean(DeferredCheckConfiguration.class);
			// The refresh has returned although the check is still held.
			assertThat(context.getBean(FindingsStore.class).findings()).isEmpty();
			config.release.countDown();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(context.getBean(FindingsStore.class).findings()).singleElement()
					.satisfies((f) -> assertThat(f.subject()).isEqualTo("deferred-check")));
		});
	}

	@Test
	void theStarterSaysItIsThereInOneLineAndAgainWhenTheDeferredChecksAreDone() {
		List<String> lines = new CopyOnWriteArrayList<>();
		withRunnerLog((event) -> lines.add(event.getMessage().getFormattedMessage()),
				() -> startupAndDeferredLines(lines));
	}

	/**
	 * Three findings of two checks, one whose subject and message hold line breaks (a
	 * name or text taken from the application): after the summary the log has exactly one
	 * line per finding, {@code id subject: message — fix} as the store keeps it, none
	 * missing, none repeated, and no line the finding's own text could start.
	 */
	@Test
	void theStartupLogHasExactlyOneLinePerFinding() {
		List<String> messages = new CopyOnWriteArrayList<>();
		withRunnerLog((event) -> messages.add(event.getMessage().getFormattedMessage()),
				() -> this.runner.withUserConfiguration(OneLinePerFindingConfiguration.class).run((context) -> {
					List<Finding> findings = context.getBean(FindingsStore.class).findings();
					assertThat(findings).hasSize(3);
					// Logged after the runner's lines, from the same thread: once it
					// arrives, every line of the run has.
					LogManager.getLogger(StartupCheckRunner.class).info("one-line-per-finding: end of run");
					await().atMost(Duration.ofSeconds(10))
						.untilAsserted(() -> assertThat(messages).contains("one-line-per-finding: end of run"));
					assertThat(messages)
						.filteredOn((message) -> message
							.startsWith("safe-defaults found 3 finding(s) at startup (1 warning(s), 2 info)"))
						.hasSize(1);
					List<String> findingLines = messages.stream()
						.filter((message) -> message.contains("one-line-"))
						.filter((message) -> !message.startsWith("one-line-per-finding"))
						.toList();
					assertThat(findingLines).as("the finding lines in %s", messages)
						.containsExactlyInAnyOrderElementsOf(findings.stream().map(Finding::toLogLine).toList());
					assertThat(findingLines).allSatisfy((line) -> assertThat(line).as(line)
						.doesNotContainPattern("[\\n\\r\\u000B\\f\\u0085\\u2028\\u2029]"));
					assertThat(findingLines).filteredOn((line) -> line.contains("forged"))
						.singleElement()
						.asString()
						.startsWith(CheckFindings.CHECKS_FAILED.id() + " one-line-pool\\nWARN forged: ");
				}));
	}

	@Test
	void theFindingsSummaryIsAsSevereAsItsMostSevereFinding() {
		List<LogEvent> events = new CopyOnWriteArrayList<>();
		withRunnerLog(events::add, () -> this.runner.withUserConfiguration(SummaryInfoConfiguration.class)
			.run((context) -> awaitSummaryLevel(events, "summary-info-only", Level.INFO)));
		withRunnerLog(events::add, () -> this.runner.withUserConfiguration(SummaryWarningConfiguration.class)
			.run((context) -> awaitSummaryLevel(events, "summary-warning-and-info", Level.WARN)));
	}

	/**
	 * Waits for the run's first finding line (the log may be asynchronous, and lines of
	 * earlier tests' contexts may still arrive) and checks the level of the summary
	 * logged just before it.
	 */
	private static void awaitSummaryLevel(List<LogEvent> events, String subject, Level expected) {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			List<String> messages = events.stream().map((event) -> event.getMessage().getFormattedMessage()).toList();
			int finding = -1;
			for (int i = 0; i < messages.size() && finding < 0; i++) {
				finding = messages.get(i).contains(" " + subject + ":") ? i : -1;
			}
			assertThat(finding).as("the finding line of %s in %s", subject, messages).isPositive();
			int summary = finding - 1;
			while (summary >= 0 && !messages.get(summary).startsWith("safe-defaults found ")) {
				summary--;
			}
			assertThat(summary).as("the summary before the finding line of %s", subject).isNotNegative();
			assertThat(messages.get(summary)).contains("at startup");
			assertThat(events.get(summary).getLevel()).as(messages.get(summary)).isEqualTo(expected);
		});
	}

	/**
	 * Records the runner's log events, INFO included (the tests' log configuration shows
	 * WARN and above), while the action runs.
	 */
	private static void withRunnerLog(Consumer<LogEvent> sink, Runnable action) {
		LoggerContext log4j = (LoggerContext) LogManager.getContext(false);
		AbstractAppender appender = new AbstractAppender("lines", null, null, true, Property.EMPTY_ARRAY) {
			@Override
			public void append(LogEvent event) {
				sink.accept(event.toImmutable());
			}
		};
		appender.start();
		String name = StartupCheckRunner.class.getName();
		LoggerConfig config = new LoggerConfig(name, Level.INFO, false);
		config.addAppender(appender, Level.INFO, null);
		log4j.getConfiguration().addLogger(name, config);
		log4j.updateLoggers();
		try {
			action.run();
		}
		finally {
			log4j.getConfiguration().removeLogger(name);
			log4j.updateLoggers();
			appender.stop();
		}
	}

	private void startupAndDeferredLines(List<String> output) {
		this.runner.withUserConfiguration(DeferredCheckConfiguration.class, FeatureConfiguration.class)
			.run((context) -> {
				StartupCheckRunner runner = context.getBean(StartupCheckRunner.class);
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(output).contains(
							"safe-defaults: applied demo(2 clients); off: sleepy; 0 checks, 0 findings; 1 deferred check running"));
				assertThat(runner.getRuns()).singleElement().satisfies((run) -> {
					assertThat(run.name()).isEqualTo("deferred-check");
					assertThat(run.deferred()).isTrue();
					assertThat(run.status()).isEqualTo(CheckRun.Status.RUNNING);
				});
				context.getBean(DeferredCheckConfiguration.class).release.countDown();
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					assertThat(runner.getRuns()).singleElement().satisfies((run) -> {
						assertThat(run.status()).isEqualTo(CheckRun.Status.DONE);
						assertThat(run.findings()).isOne();
					});
					assertThat(output).contains("safe-defaults: 1 deferred check done (deferred-check), 1 finding");
				});
			});
	}

	@Test
	void aDeferredCheckThatHangsIsReportedAfterTheTimeout() {
		this.runner.withPropertyValues("safe-defaults.checks.deferred-timeout=200ms")
			.withUserConfiguration(DeferredCheckConfiguration.class)
			.run((context) -> await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(context.getBean(FindingsStore.class).findings()).singleElement()
					.satisfies((f) -> {
						assertThat(f.id()).isEqualTo(CheckFindings.CHECKS_FAILED.id());
						assertThat(f.message()).contains("did not finish in time");
					})));
	}

	private static Check named(String name, Check check) {
		return new Check() {
			@Override
			public List<Finding> run() throws Exception {
				return check.run();
			}

			@Override
			public String name() {
				return name;
			}
		};
	}

	@Configuration(proxyBeanMethods = false)
	static class WarningCheckConfiguration {

		int runs;

		@Bean
		Check warningCheck() {
			return named("warning-check", () -> {
				this.runs++;
				return List.of(new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING, "warning-check",
						"a warning", "fix it"));
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InfoCheckConfiguration {

		@Bean
		Check infoCheck() {
			return named("info-check", () -> List
				.of(new Finding("config-cache.mutable-type", Severity.INFO, "info-check", "an info", "nothing")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SummaryInfoConfiguration {

		@Bean
		Check summaryInfoCheck() {
			return named("summary-info-check", () -> List.of(new Finding("config-cache.mutable-type", Severity.INFO,
					"summary-info-only", "an info", "nothing")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OneLinePerFindingConfiguration {

		@Bean
		Check oneLineWarningAndInfoCheck() {
			return named("one-line-check", () -> List.of(
					new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING, "one-line-pool\nWARN forged",
							"a warning\r\nover two lines", "fix it\u2028there"),
					new Finding("config-cache.mutable-type", Severity.INFO, "one-line-type", "an info", "nothing")));
		}

		@Bean
		Check oneLineSecondCheck() {
			return named("one-line-second-check", () -> List.of(new Finding("config-cache.mutable-type", Severity.INFO,
					"one-line-other-type", "an info", "nothing")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SummaryWarningConfiguration {

		@Bean
		Check summaryWarningCheck() {
			return named("summary-warning-check",
					() -> List.of(
							new Finding("config-cache.mutable-type", Severity.INFO, "summary-warning-and-info",
									"an info", "nothing"),
							new Finding(CheckFindings.CHECKS_FAILED.id(), Severity.WARNING, "summary-warning-and-info",
									"a warning", "fix it")));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ThrowingCheckConfiguration {

		@Bean
		Check throwingCheck() {
			return named("throwing-check", () -> {
				throw new IllegalStateException("boom");
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FeatureConfiguration {

		@Bean
		FeatureStatusReporter demoFeatureStatus() {
			return new FeatureStatusReporter() {
				@Override
				public FeatureStatus status() {
					return FeatureStatus.applied("demo", List.of("a", "b")).withScope("2 clients");
				}
			};
		}

		@Bean
		FeatureStatusReporter sleepyFeatureStatus() {
			return new FeatureStatusReporter() {
				@Override
				public FeatureStatus status() {
					return FeatureStatus.off("sleepy", "switched off");
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DeferredCheckConfiguration {

		final CountDownLatch release = new CountDownLatch(1);

		@Bean
		Check deferredCheck() {
			return new Check() {
				@Override
				public List<Finding> run() throws Exception {
					DeferredCheckConfiguration.this.release.await(30, TimeUnit.SECONDS);
					return List
						.of(new Finding("config-cache.mutable-type", Severity.INFO, "deferred-check", "done", "none"));
				}

				@Override
				public String name() {
					return "deferred-check";
				}

				@Override
				public boolean deferred() {
					return true;
				}
			};
		}

	}

}
