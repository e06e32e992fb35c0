package dev.safedefaults.logging.logback;

import java.util.List;

import ch.qos.logback.classic.LoggerContext;
import dev.safedefaults.check.Finding;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks of an application's own Logback {@code AsyncAppender}, on real contexts
 * configured from XML. Covers {@code AsyncAppenderFindings} (each finding's id, and the
 * appender, queue and setting its message and fix name) and {@code LogbackAppenders} (an
 * async appender nested in another found, each once).
 */
@Tag("logback")
class LogbackAsyncAppenderCheckTests {

	private LoggerContext context;

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.stop();
		}
	}

	private List<Finding> check(String asyncSettings) {
		this.context = LogbackXmlContexts.configure(LogbackXmlContexts.console("CONSOLE", "%msg%n")
				+ "<appender name=\"ASYNC\" class=\"ch.qos.logback.classic.AsyncAppender\">"
				+ "<appender-ref ref=\"CONSOLE\"/>" + asyncSettings + "</appender>"
				+ "<root level=\"INFO\"><appender-ref ref=\"ASYNC\"/></root>");
		LoggerContext checked = this.context;
		return new LogbackAsyncAppenderCheck(() -> checked).run();
	}

	private static List<String> ids(List<Finding> findings) {
		return findings.stream().map(Finding::id).toList();
	}

	@Test
	void aLargeQueueThatDiscardsInfoAndWaitsForWarnIsNotReported() {
		assertThat(check("<queueSize>8192</queueSize>")).isEmpty();
	}

	@Test
	void logbacksDefaultQueueOf256IsTooSmallAndTheFixNamesTheAppender() {
		List<Finding> findings = check("");
		assertThat(ids(findings)).containsExactly("logging.logback-async-small-queue");
		Finding finding = findings.get(0);
		assertThat(finding.subject()).isEqualTo("ASYNC");
		assertThat(finding.message()).contains("queues 256 events", "fewer than 51 slots", "after 205 queued events");
		assertThat(finding.fix()).contains("<queueSize>8192</queueSize>", "'ASYNC'");
	}

	@Test
	void aQueueOf1024IsLargeEnough() {
		assertThat(check("<queueSize>1024</queueSize>")).isEmpty();
		this.context.stop();
		assertThat(ids(check("<queueSize>1023</queueSize>"))).containsExactly("logging.logback-async-small-queue");
	}

	@Test
	void neverBlockDropsWarnAndErrorWhenFull() {
		List<Finding> findings = check("<queueSize>8192</queueSize><neverBlock>true</neverBlock>");
		assertThat(ids(findings)).containsExactly("logging.logback-async-never-block");
		assertThat(findings.get(0).message()).contains("'ASYNC'", "8192-slot queue", "WARN and ERROR included");
		assertThat(findings.get(0).fix()).contains("<neverBlock>true</neverBlock>", "'ASYNC'");
	}

	@Test
	void aZeroDiscardingThresholdMakesInfoCallersWaitWhenTheQueueIsFull() {
		List<Finding> findings = check("<queueSize>8192</queueSize><discardingThreshold>0</discardingThreshold>");
		assertThat(ids(findings)).containsExactly("logging.logback-async-blocking");
		assertThat(findings.get(0).fix()).contains("<discardingThreshold>0</discardingThreshold>", "'ASYNC'");
	}

	@Test
	void aZeroDiscardingThresholdWithNeverBlockIsReportedAsNeverBlock() {
		assertThat(ids(check("<queueSize>8192</queueSize><discardingThreshold>0</discardingThreshold>"
				+ "<neverBlock>true</neverBlock>")))
			.containsExactly("logging.logback-async-never-block");
	}

	@Test
	void includeCallerDataIsAStackWalkPerEvent() {
		List<Finding> findings = check("<queueSize>8192</queueSize><includeCallerData>true</includeCallerData>");
		assertThat(ids(findings)).containsExactly("logging.logback-async-caller-data");
		assertThat(findings.get(0).fix()).contains("<includeCallerData>true</includeCallerData>", "'ASYNC'");
	}

	@Test
	void aDiscardingThresholdAboveTheQueueSizeDiscardsInfoWithTheQueueEmpty() {
		List<Finding> findings = check("<queueSize>8192</queueSize><discardingThreshold>10000</discardingThreshold>");
		assertThat(ids(findings)).containsExactly("logging.logback-async-discarding-threshold");
		assertThat(findings.get(0).message()).contains("discardingThreshold=10000 and queueSize=8192",
				"even with the queue empty", "WARN and ERROR are never discarded by it");
		assertThat(findings.get(0).fix()).contains("<discardingThreshold>10000</discardingThreshold>", "'ASYNC'");
	}

	@Test
	void aDiscardingThresholdEqualToTheQueueSizeDiscardsInfoAsSoonAsOneEventIsQueued() {
		List<Finding> findings = check("<queueSize>8192</queueSize><discardingThreshold>8192</discardingThreshold>");
		assertThat(findings).singleElement()
			.satisfies((finding) -> assertThat(finding.message()).contains("as soon as one event is queued"));
	}

	@Test
	void aDiscardingThresholdBelowTheQueueSizeIsLogbacksOwnDesign() {
		assertThat(check("<queueSize>8192</queueSize><discardingThreshold>4000</discardingThreshold>")).isEmpty();
	}

	@Test
	void anAsyncAppenderNestedInAnotherIsCheckedToo() {
		this.context = LogbackXmlContexts.configure(LogbackXmlContexts.console("CONSOLE", "%msg%n")
				+ "<appender name=\"INNER\" class=\"ch.qos.logback.classic.AsyncAppender\">"
				+ "<appender-ref ref=\"CONSOLE\"/><queueSize>8192</queueSize><neverBlock>true</neverBlock></appender>"
				+ "<appender name=\"OUTER\" class=\"ch.qos.logback.classic.AsyncAppender\">"
				+ "<appender-ref ref=\"INNER\"/><queueSize>8192</queueSize></appender>"
				+ "<logger name=\"com.example\" level=\"INFO\"><appender-ref ref=\"OUTER\"/></logger>");
		LoggerContext checked = this.context;
		List<Finding> findings = new LogbackAsyncAppenderCheck(() -> checked).run();
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo("logging.logback-async-never-block");
			assertThat(finding.subject()).isEqualTo("INNER");
		});
	}

	@Test
	void aContextWithoutAsyncAppendersIsNotReported() {
		this.context = LogbackXmlContexts.configure(LogbackXmlContexts.console("CONSOLE", "%msg%n")
				+ "<root level=\"INFO\"><appender-ref ref=\"CONSOLE\"/></root>");
		LoggerContext checked = this.context;
		assertThat(new LogbackAsyncAppenderCheck(() -> checked).run()).isEmpty();
	}

}
