package dev.safedefaults.logging.logback;

import java.util.List;

import ch.qos.logback.classic.LoggerContext;
import dev.safedefaults.check.Finding;
import dev.safedefaults.logging.LoggingFindings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Location conversion words in Logback patterns raise the same finding as on Log4j2, on
 * real contexts configured from XML; the configuration is left as it is. The words are
 * read as the layout reads them by {@link LogbackPatternWords}, which these tests and
 * {@link LogbackFullStackTracesCheckTests} cover.
 */
@Tag("logback")
class LogbackLocationPatternCheckTests {

	private LoggerContext context;

	@AfterEach
	void stop() {
		if (this.context != null) {
			this.context.stop();
		}
	}

	private List<Finding> check(String xml) {
		this.context = LogbackXmlContexts.configure(xml);
		LoggerContext checked = this.context;
		return new LogbackLocationPatternCheck(() -> checked, LoggingFindings.LOCATION_PATTERN_ON_LOGBACK).run();
	}

	private List<Finding> checkPattern(String pattern) {
		return check(LogbackXmlContexts.console("CONSOLE", pattern)
				+ "<root level=\"INFO\"><appender-ref ref=\"CONSOLE\"/></root>");
	}

	@Test
	void everyShortAndLongLocationWordIsReportedWithTheAppenderAndTheWords() {
		List<Finding> findings = checkPattern("%C %class %F %file %L %line %M %method %caller{2} %logger %msg%n");
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.id()).isEqualTo("logging.location-pattern");
			assertThat(finding.subject()).isEqualTo("CONSOLE");
			assertThat(finding.message()).contains("'CONSOLE'", "(%C %class %F %file %L %line %M %method %caller)");
			assertThat(finding.fix()).contains("Remove %C %class %F %file %L %line %M %method %caller", "'CONSOLE'",
					"%logger");
		});
	}

	@Test
	void wordsWithFormatModifiersAndNestedInCompositeWordsAreFound() {
		List<Finding> findings = checkPattern(
				"%highlight(%-5level %.-20C) %replace(%msg at %L){'\\s', ' '} %-10(%M) %n");
		assertThat(findings).singleElement()
			.satisfies((finding) -> assertThat(finding.message()).contains("(%C %L %M)"));
	}

	@Test
	void aPatternWithoutLocationIsNotReported() {
		assertThat(checkPattern("%d %-5level [%thread] %logger{36} %lo %c - %msg %mdc %kvp%n%ex")).isEmpty();
	}

	@Test
	void anEscapedPercentIsNotAWord() {
		assertThat(checkPattern("100\\%L done %msg%n")).isEmpty();
	}

	@Test
	void theApplicationsOwnWordForACallerConverterIsFound() {
		List<Finding> findings = check("<conversionRule conversionWord=\"where\" "
				+ "class=\"ch.qos.logback.classic.pattern.LineOfCallerConverter\"/>"
				+ LogbackXmlContexts.console("CONSOLE", "%msg %where%n")
				+ "<root level=\"INFO\"><appender-ref ref=\"CONSOLE\"/></root>");
		assertThat(findings).singleElement().satisfies((finding) -> assertThat(finding.message()).contains("(%where)"));
	}

	@Test
	void anAppenderAttachedInsideAnAsyncAppenderIsWalked() {
		List<Finding> findings = check(
				LogbackXmlContexts.console("PLAIN", "%msg%n") + LogbackXmlContexts.console("WITH_LINE", "%msg:%line%n")
						+ "<appender name=\"ASYNC\" class=\"ch.qos.logback.classic.AsyncAppender\">"
						+ "<appender-ref ref=\"WITH_LINE\"/></appender>"
						+ "<root level=\"INFO\"><appender-ref ref=\"PLAIN\"/><appender-ref ref=\"ASYNC\"/></root>");
		assertThat(findings).singleElement().satisfies((finding) -> {
			assertThat(finding.subject()).isEqualTo("WITH_LINE");
			assertThat(finding.message()).contains("(%line)");
		});
	}

	@Test
	void theConfigurationIsNotRewritten() {
		List<Finding> findings = checkPattern("%msg %L%n");
		assertThat(findings).hasSize(1);
		ch.qos.logback.core.OutputStreamAppender<?> console = (ch.qos.logback.core.OutputStreamAppender<?>) this.context
			.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
			.getAppender("CONSOLE");
		assertThat(((ch.qos.logback.classic.encoder.PatternLayoutEncoder) console.getEncoder()).getPattern())
			.isEqualTo("%msg %L%n");
	}

}
