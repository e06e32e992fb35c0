package dev.safedefaults;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.safedefaults.check.Check;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingCatalogue;
import dev.safedefaults.check.FindingsStore;
import dev.safedefaults.check.Severity;
import dev.safedefaults.check.StartupCheckRunner;
import dev.safedefaults.check.StartupFindingsException;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
			assertThat(context.getBean(FindingsStore.class).findings()).singleElement()
				.satisfies((finding) -> {
					assertThat(finding.id()).isEqualTo(FindingCatalogue.CHECKS_FAILED);
					assertThat(finding.subject()).isEqualTo("warning-check");
				});
		});
	}

	@Test
	void aCheckThatThrowsBecomesAFindingAndStartupGoesOn() {
		this.runner.withUserConfiguration(ThrowingCheckConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(FindingsStore.class).findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo(FindingCatalogue.CHECKS_FAILED);
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
		this.runner.withPropertyValues("safe-defaults.checks.fail-on=warning", "safe-defaults.checks.disabled=checks.failed")
			.withUserConfiguration(WarningCheckConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void failOnNoneIsTheDefault() {
		this.runner.withUserConfiguration(WarningCheckConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
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
						assertThat(ex.getReason()).contains("Allowed", FindingCatalogue.CHECKS_FAILED);
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
	void aDeferredCheckThatHangsIsReportedAfterTheTimeout() {
		this.runner.withPropertyValues("safe-defaults.checks.deferred-timeout=200ms")
			.withUserConfiguration(DeferredCheckConfiguration.class)
			.run((context) -> await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(context.getBean(FindingsStore.class).findings()).singleElement()
					.satisfies((f) -> {
						assertThat(f.id()).isEqualTo(FindingCatalogue.CHECKS_FAILED);
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
				return List.of(Finding.warning(FindingCatalogue.CHECKS_FAILED, "warning-check", "a warning", "fix it"));
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class InfoCheckConfiguration {

		@Bean
		Check infoCheck() {
			return named("info-check",
					() -> List.of(Finding.info(FindingCatalogue.CHECKS_FAILED, "info-check", "an info", "nothing")));
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
	static class DeferredCheckConfiguration {

		final CountDownLatch release = new CountDownLatch(1);

		@Bean
		Check deferredCheck() {
			return new Check() {
				@Override
				public List<Finding> run() throws Exception {
					DeferredCheckConfiguration.this.release.await(30, TimeUnit.SECONDS);
					return List.of(Finding.info(FindingCatalogue.CHECKS_FAILED, "deferred-check", "done", "none"));
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
