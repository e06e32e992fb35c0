package dev.safedefaults.logging;

import java.time.Duration;

import dev.safedefaults.SafeDefaultsAutoConfiguration;
import dev.safedefaults.StarterThreads;
import dev.safedefaults.check.Finding;
import dev.safedefaults.check.FindingsStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bound on a log call shared by both routes (issue 49): {@link LogStalls} and
 * {@link LogOutputStall} (how long a thread may wait, the stall from the first wait that
 * ran out until the output moves, the counts, the latest events, the summary line),
 * {@link DroppedLogEvent} (masked and cut) and {@link LogStallFindings}
 * ({@code logging.output-stalled} while an output is stalled, on the store the health
 * group reads), and {@code safe-defaults.logging.queue-full-timeout}'s range.
 */
class LogStallsTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SafeDefaultsAutoConfiguration.class, LoggingDefaultsAutoConfiguration.class));

	@Test
	void aThreadWaitsTheBoundUntilAWaitRunsOutThenNotAtAllUntilTheOutputMoves() {
		LogStalls stalls = new LogStalls(Duration.ofMillis(1500));
		LogOutputStall output = stalls.output("stdout");
		assertThat(output.waitNanos()).isEqualTo(Duration.ofMillis(1500).toNanos());
		output.waitedTheWholeBound();
		assertThat(output.isStalled()).isTrue();
		assertThat(output.waitNanos()).isZero();
		assertThat(stalls.output("a file").waitNanos()).as("another output").isPositive();
		assertThat(output.moved()).as("nothing was lost").isNull();
		assertThat(output.isStalled()).isFalse();
		assertThat(output.waitNanos()).isEqualTo(Duration.ofMillis(1500).toNanos());
	}

	@Test
	void theStartersOwnThreadsNeverWait() throws Exception {
		LogStalls stalls = new LogStalls(Duration.ofMinutes(1));
		LogOutputStall output = stalls.output("stdout");
		long[] seen = new long[1];
		Thread starters = StarterThreads.newThread(() -> seen[0] = output.waitNanos(), "safe-defaults-test");
		starters.start();
		starters.join();
		assertThat(seen[0]).isZero();
		assertThat(output.waitNanos()).as("an application thread").isEqualTo(Duration.ofMinutes(1).toNanos());
	}

	@Test
	void whenTheOutputMovesOneLineSaysHowManyWereLostFromWhenToWhenTheFirstAndTheLast() {
		LogStalls stalls = new LogStalls(Duration.ofSeconds(2));
		LogOutputStall output = stalls.output("stdout");
		output.waitedTheWholeBound();
		output.dropped(DroppedLogEvent.now(false, "com.example.Orders", "first warning", null, null));
		for (int i = 0; i < 30; i++) {
			output.dropped(DroppedLogEvent.now(i % 2 == 0, "com.example.Orders", "event " + i, null, null));
		}
		output.dropped(DroppedLogEvent.now(true, "com.example.Billing", "last error", "java.io.IOException", "gone"));
		assertThat(stalls.warnDropped()).isEqualTo(16);
		assertThat(stalls.errorDropped()).isEqualTo(16);
		assertThat(stalls.recent()).hasSize(LogStalls.RECENT)
			.last()
			.extracting(DroppedLogEvent::message)
			.isEqualTo("last error — java.io.IOException: gone");
		assertThat(output.hasLost()).isTrue();
		String line = output.moved();
		assertThat(line)
			.startsWith("safe-defaults: the log output stdout could not take 16 WARN and 16 ERROR events " + "from ")
			.contains("they were dropped after waiting at most 2s. First: ")
			.contains(" WARN [main] com.example.Orders - first warning | last: ")
			.endsWith(" ERROR [main] com.example.Billing - last error — java.io.IOException: gone");
		assertThat(output.hasLost()).isFalse();
		assertThat(output.moved()).as("summarised once").isNull();
		assertThat(stalls.statusLines().get(0))
			.isEqualTo("WARN and ERROR wait at most 2s for room in a full queue, then are dropped and counted until "
					+ "the stalled output drains; 16 WARN and 16 ERROR dropped so far");
	}

	@Test
	void aDroppedEventsMessageIsMaskedAndCut() {
		DroppedLogEvent event = DroppedLogEvent.now(true, "com.example.Db",
				"connect to jdbc:mysql://app:s3cret@db/orders failed", "java.sql.SQLException", "password=hunter2");
		assertThat(event.message()).doesNotContain("s3cret").doesNotContain("hunter2");
		assertThat(DroppedLogEvent.now(false, "com.example.Db", "x".repeat(400), null, null).message())
			.hasSize(DroppedLogEvent.MAX_MESSAGE + 1)
			.endsWith("…");
		assertThat(DroppedLogEvent.now(false, "com.example.Db", null, null, null).message())
			.isEqualTo(DroppedLogEvent.NOT_CAPTURED);
	}

	@Test
	void aStalledOutputIsAFindingOnTheStoreUntilItMovesAgain() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LogStallFindings.class);
			FindingsStore store = context.getBean(FindingsStore.class);
			LogOutputStall output = context.getBean(LogStalls.class).output("stdout");
			output.waitedTheWholeBound();
			assertThat(store.findings()).singleElement().satisfies((finding) -> {
				assertThat(finding.id()).isEqualTo("logging.output-stalled");
				assertThat(finding.subject()).isEqualTo("stdout");
				assertThat(finding.message()).contains("The log output stdout took nothing while a WARN or ERROR "
						+ "waited 2s for room in its full queue (stalled since ");
			});
			output.moved();
			assertThat(store.findings()).extracting(Finding::id).doesNotContain("logging.output-stalled");
		});
	}

	@Test
	void aQueueFullTimeoutOutsideItsRangeFailsTheStartNamingThePropertyAndTheRange() {
		this.runner.withPropertyValues("safe-defaults.logging.queue-full-timeout=2m").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("safe-defaults.logging.queue-full-timeout")
				.hasMessageContaining("Must be from 0s to 1m");
		});
	}

}
